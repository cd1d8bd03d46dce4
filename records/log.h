#pragma once
// Warnings and notes for the user: stderr only, silenced by --quiet.
#include <fmt/format.h>

#include <cstdio>

namespace bertkit::records {

void set_quiet(bool quiet);
bool quiet();

template <typename... Args>
void warn(fmt::format_string<Args...> format, Args&&... args) {
  if (quiet()) return;
  std::fflush(stdout);
  fmt::print(stderr, "bertkit: warning: {}\n", fmt::format(format, std::forward<Args>(args)...));
}

template <typename... Args>
void note(fmt::format_string<Args...> format, Args&&... args) {
  if (quiet()) return;
  std::fflush(stdout);
  fmt::print(stderr, "bertkit: {}\n", fmt::format(format, std::forward<Args>(args)...));
}

}  // namespace bertkit::records
