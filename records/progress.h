#pragma once
// A progress bar with rate and ETA, drawn on stderr only when stderr is a terminal, the input size is
// known and --quiet is off; otherwise every call does nothing. One producer calls update() after each
// batch; clear() may come from any thread (before a warning).
#include <chrono>
#include <cstdint>
#include <mutex>
#include <optional>
#include <string>

namespace bertkit::records {

class Progress {
 public:
  // `fd`: where the bar goes (stderr; a test passes a pseudo-terminal).
  explicit Progress(std::optional<std::uint64_t> total_bytes, int fd = 2);
  ~Progress();
  Progress(const Progress&) = delete;
  Progress& operator=(const Progress&) = delete;

  bool active() const { return active_; }
  // Redraws at most every 100 ms, so it is cheap to call per batch or per record.
  void update(std::uint64_t bytes_done, std::uint64_t records_done);
  // Erases the bar line; the next update() draws it again.
  void clear();

 private:
  void draw(const std::string& text);

  bool active_ = false;
  int fd_;
  std::uint64_t total_ = 0;
  std::chrono::steady_clock::time_point start_;
  std::chrono::steady_clock::time_point last_draw_;
  bool drawn_ = false;
  std::mutex mutex_;
};

// One bar line fitted into `width` columns:
//  " 45% [=========>           ] 12.3/27.0 MB  1234 records  850 rec/s  ETA 0:17"
std::string render_progress(std::uint64_t bytes_done, std::uint64_t total_bytes, std::uint64_t records,
                            double seconds, int width);

}  // namespace bertkit::records
