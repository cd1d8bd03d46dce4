#pragma once
// What the tests that drive shell commands share: quoting a word for bash, running a script in a
// folder, finding a command.
#include <fmt/format.h>

#include <cstdlib>
#include <filesystem>
#include <string>

namespace bktest {

// `s` as one bash word: single-quoted, inner quotes closed, escaped and reopened.
inline std::string shell_quote(const std::string& s) {
  std::string out = "'";
  for (char c : s) out += c == '\'' ? std::string("'\\''") : std::string(1, c);
  return out + "'";
}

// Runs a bash script in `dir`; returns its exit status (std::system's).
inline int bash_in(const std::filesystem::path& dir, const std::string& script) {
  return std::system(fmt::format("cd {} && bash -c {}", shell_quote(dir.string()), shell_quote(script)).c_str());
}

// Whether `tool` is a command bash finds on PATH.
inline bool have_command(const std::string& tool) {
  return std::system(fmt::format("command -v {} >/dev/null 2>&1", shell_quote(tool)).c_str()) == 0;
}

}  // namespace bktest
