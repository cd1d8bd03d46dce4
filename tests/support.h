#pragma once
// Helpers shared by the tests: where ../shared is, reading (gzip'd) files, running the binary.
#include <nlohmann/json.hpp>

#include <cstdint>
#include <filesystem>
#include <optional>
#include <string>
#include <vector>

namespace bktest {

// ../shared next to the checkout; throws with a clear message when it is missing.
const std::filesystem::path& shared_dir();
std::filesystem::path shared(const std::string& relative);

std::string read_file(const std::filesystem::path& path);       // whole file; gzip is inflated
std::vector<std::string> read_lines(const std::filesystem::path& path);  // split on '\n' only
nlohmann::json read_json(const std::filesystem::path& path);

// Goldens' tolerance: Hugging Face's numbers must be matched within 1e-4 absolute.
inline constexpr double kTolerance = 1e-4;

// Tests that sweep large data (every line of every corpus) take every kSweepStride-th item in the
// sanitizer builds and in cross-compiled builds run under emulation (tests/arm64_check.sh): those look
// for memory errors and undefined behaviour, or for what another architecture does differently (char's
// sign, the kernels), which an eighth of the lines (thousands still) drives through the same code, at
// 10-30x the time per line. The release run checks every line.
#ifdef BERTKIT_SWEEP_SUBSET
inline constexpr std::size_t kSweepStride = 8;
#else
inline constexpr std::size_t kSweepStride = 1;
#endif

// For a helper that returns a reference into something that outlives its arguments (a cache, a loaded
// golden file): GCC 14's -Wdangling-reference cannot tell, and warns where a temporary string is passed.
#if defined(__has_cpp_attribute) && __has_cpp_attribute(gnu::no_dangling)
#define BKTEST_NO_DANGLING [[gnu::no_dangling]]
#else
#define BKTEST_NO_DANGLING
#endif

// Writes `bytes` to `path`, creating its folder.
void write_file(const std::filesystem::path& path, const std::string& bytes);
// Lines without their '\n'; a last line without one counts too.
std::vector<std::string> split_lines(const std::string& s);
std::size_t count_lines(const std::string& s);  // the number of '\n'
std::vector<nlohmann::json> json_lines(const std::string& out);  // one JSON value per line
// A CSV field quoted as RFC 4180 says (always quoted, inner quotes doubled).
std::string csv_quote(const std::string& s);

struct RunResult {
  int exit_code = -1;
  std::string out;
  std::string err;
};
// Runs build/bertkit with the arguments (no shell), feeding `input` on stdin.
RunResult run_bertkit(const std::vector<std::string>& args, const std::string& input = "");
// Runs `bertkit ARGS` (ARGS already shell-quoted) with stdout on a pipe that is closed after the first
// line, as `bertkit ARGS | head -1` does: that line, the exit code and everything written to stderr.
struct ClosedPipeRun {
  std::string first_line;
  int exit_code = -1;  // -1: not a normal exit (killed by SIGPIPE, say)
  std::string err;
};
ClosedPipeRun run_bertkit_reading_one_line(const std::string& shell_args, const std::filesystem::path& scratch_dir);
// The same with files limited to `max_file_bytes` (RLIMIT_FSIZE, SIGXFSZ ignored): a write past the
// limit fails with EFBIG as on a full disk.
RunResult run_bertkit_with_file_limit(std::uint64_t max_file_bytes, const std::vector<std::string>& args,
                                      const std::string& input = "");

// A fresh temporary directory, removed when the object dies.
class TempDir {
 public:
  TempDir();
  ~TempDir();
  TempDir(const TempDir&) = delete;
  TempDir& operator=(const TempDir&) = delete;
  const std::filesystem::path& path() const { return path_; }
  std::filesystem::path operator/(const std::string& name) const { return path_ / name; }

 private:
  std::filesystem::path path_;
};

// An environment variable set to `value` while the object lives (children started meanwhile see it),
// then restored.
class ScopedEnv {
 public:
  ScopedEnv(const char* name, const std::string& value);
  ~ScopedEnv();
  ScopedEnv(const ScopedEnv&) = delete;
  ScopedEnv& operator=(const ScopedEnv&) = delete;

 private:
  const char* name_;
  std::optional<std::string> old_;
};

}  // namespace bktest
