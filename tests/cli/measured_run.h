#pragma once
// Peak memory of one bertkit run: its largest resident set as /usr/bin/time reports it (a process
// started from the test itself would count the test's memory too: Linux keeps the high-water mark of
// the memory a process had before exec). Checked only outside the sanitizers, whose shadow memory and
// quarantine would be measured too.
#include "support.h"

#include <sys/wait.h>

#include <cstdlib>
#include <filesystem>
#include <string>
#include <vector>

namespace bktest {

#if defined(__SANITIZE_ADDRESS__) || defined(__SANITIZE_THREAD__)
inline constexpr bool kMeasured = false;
#elif defined(__has_feature)
#if __has_feature(address_sanitizer) || __has_feature(thread_sanitizer)
inline constexpr bool kMeasured = false;
#else
inline constexpr bool kMeasured = true;
#endif
#else
inline constexpr bool kMeasured = true;
#endif

struct MeasuredRun {
  int exit_code = -1;
  std::string out, err;
  long peak_rss_kb = 0;
};

// Runs bertkit with `args`, stdin empty; its output and /usr/bin/time's figure go through files in `dir`.
inline MeasuredRun run_measured(const std::vector<std::string>& args, const TempDir& dir) {
  auto quote = [](const std::string& s) {
    std::string q = "'";
    for (char c : s) q += c == '\'' ? std::string("'\\''") : std::string(1, c);
    return q + "'";
  };
  std::string command = "/usr/bin/time -f %M -o " + quote((dir / "rss.txt").string()) + " " + quote(BERTKIT_BINARY);
  for (const auto& a : args) command += " " + quote(a);
  command += " > " + quote((dir / "out.txt").string()) + " 2> " + quote((dir / "err.txt").string()) + " < /dev/null";
  const int status = std::system(command.c_str());
  MeasuredRun run;
  run.exit_code = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
  run.out = read_file(dir / "out.txt");
  run.err = read_file(dir / "err.txt");
  // time adds "Command exited with non-zero status N" before the figure when the command fails.
  const auto lines = split_lines(read_file(dir / "rss.txt"));
  if (!lines.empty()) run.peak_rss_kb = std::stol(lines.back());
  return run;
}

}  // namespace bktest
