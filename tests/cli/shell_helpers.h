#pragma once
// What the tests that drive shell commands share: quoting a word for bash, running a script in a
// folder or reading what a command prints, finding a command.
#include <fmt/format.h>

#include <cstdio>
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

// What `command` (run by sh) prints on stdout, its last newline dropped.
inline std::string output_of(const std::string& command) {
  std::string out;
  if (FILE* pipe = popen(command.c_str(), "r")) {
    char buffer[4096];
    for (std::size_t n; (n = std::fread(buffer, 1, sizeof buffer, pipe)) > 0;) out.append(buffer, n);
    pclose(pipe);
  }
  if (!out.empty() && out.back() == '\n') out.pop_back();
  return out;
}

// Whether `tool` is a command bash finds on PATH.
inline bool have_command(const std::string& tool) {
  return std::system(fmt::format("command -v {} >/dev/null 2>&1", shell_quote(tool)).c_str()) == 0;
}

}  // namespace bktest
