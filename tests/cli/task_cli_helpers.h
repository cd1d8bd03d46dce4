#pragma once
// What the task end-to-end tests share: files in, JSON lines out, fixture paths and altered copies.
#include "support.h"

#include <doctest/doctest.h>
#include <nlohmann/json.hpp>

#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

namespace bktest {

inline std::string fixture_path(const std::string& name) { return shared("fixtures/models/" + name).string(); }

inline nlohmann::json fixture_goldens(const std::string& name) {
  return read_json(shared("fixtures/models/" + name + "/goldens.json"));
}

// The same for the later families and tasks (fixtures/models2).
inline std::string models2_path(const std::string& name) { return shared("fixtures/models2/" + name).string(); }

inline nlohmann::json models2_goldens(const std::string& name) {
  return read_json(shared("fixtures/models2/" + name + "/goldens.json"));
}

// The retrieval and 2026 families (fixtures/models3).
inline std::string models3_path(const std::string& name) { return shared("fixtures/models3/" + name).string(); }

inline nlohmann::json models3_goldens(const std::string& name) {
  return read_json(shared("fixtures/models3/" + name + "/goldens.json"));
}

// Runs bertkit, requires success, and returns its JSON lines.
inline std::vector<nlohmann::json> run_jsonl(const std::vector<std::string>& args, const std::string& input = "") {
  auto r = run_bertkit(args, input);
  INFO(r.err);
  REQUIRE(r.exit_code == 0);
  return json_lines(r.out);
}

// `args` followed by `more`: a command line built from parts.
inline std::vector<std::string> with(std::vector<std::string> args, const std::vector<std::string>& more) {
  args.insert(args.end(), more.begin(), more.end());
  return args;
}

// A copy of a fixture folder whose `file` (a JSON object) gets `key` = `value`.
inline std::string fixture_with(const TempDir& dir, const std::string& fixture, const std::string& file,
                                const std::string& key, const nlohmann::json& value) {
  const auto to = dir / fixture;
  std::filesystem::copy(shared("fixtures/models/" + fixture), to, std::filesystem::copy_options::recursive);
  auto j = read_json(to / file);
  j[key] = value;
  std::filesystem::permissions(to / file, std::filesystem::perms::owner_write, std::filesystem::perm_options::add);
  write_file(to / file, j.dump());
  return to.string();
}

}  // namespace bktest
