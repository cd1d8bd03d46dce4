#pragma once
// What the classify, fill-mask and qa end-to-end tests share: files in, JSON lines out, fixture paths.
#include "support.h"

#include <nlohmann/json.hpp>

#include <fstream>
#include <string>
#include <vector>

namespace bktest {

inline std::string fixture_path(const std::string& name) { return shared("fixtures/models/" + name).string(); }

inline nlohmann::json fixture_goldens(const std::string& name) {
  return read_json(shared("fixtures/models/" + name + "/goldens.json"));
}

inline void write_file(const std::filesystem::path& path, const std::string& text) {
  std::ofstream(path, std::ios::binary) << text;
}

// Lines without their '\n'; a last line without one counts too.
inline std::vector<std::string> split_lines(const std::string& s) {
  std::vector<std::string> lines;
  std::size_t start = 0;
  while (start < s.size()) {
    std::size_t nl = s.find('\n', start);
    if (nl == std::string::npos) nl = s.size();
    lines.push_back(s.substr(start, nl - start));
    start = nl + 1;
  }
  return lines;
}

inline std::vector<nlohmann::json> json_lines(const std::string& out) {
  std::vector<nlohmann::json> r;
  for (const auto& l : split_lines(out)) r.push_back(nlohmann::json::parse(l));
  return r;
}

// A CSV field quoted as RFC 4180 says (always quoted, inner quotes doubled).
inline std::string csv_quote(const std::string& s) {
  std::string out = "\"";
  for (char c : s) {
    if (c == '"') out += '"';
    out += c;
  }
  return out + "\"";
}

}  // namespace bktest
