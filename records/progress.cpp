#include "records/progress.h"

#include "records/log.h"

#include <fmt/format.h>
#include <sys/ioctl.h>
#include <unistd.h>

#include <algorithm>

namespace bertkit::records {

namespace {

constexpr auto kRedrawInterval = std::chrono::milliseconds(100);

std::string human_bytes(double bytes) {
  const char* units[] = {"B", "kB", "MB", "GB", "TB"};
  int unit = 0;
  while (bytes >= 1000 && unit < 4) {
    bytes /= 1000;
    ++unit;
  }
  if (unit == 0) return fmt::format("{:.0f} B", bytes);
  return fmt::format("{:.1f} {}", bytes, units[unit]);
}

std::string clock_time(double seconds) {
  auto s = static_cast<std::uint64_t>(seconds + 0.5);
  if (s >= 3600) return fmt::format("{}:{:02}:{:02}", s / 3600, s / 60 % 60, s % 60);
  return fmt::format("{}:{:02}", s / 60, s % 60);
}

int terminal_width(int fd) {
  winsize ws{};
  if (::ioctl(fd, TIOCGWINSZ, &ws) == 0 && ws.ws_col > 0) return ws.ws_col;
  return 80;
}

}  // namespace

std::string render_progress(std::uint64_t bytes_done, std::uint64_t total_bytes, std::uint64_t records,
                            double seconds, int width) {
  double fraction = total_bytes ? std::min(1.0, static_cast<double>(bytes_done) / static_cast<double>(total_bytes)) : 0;
  std::string stats = fmt::format("{}/{}  {} records", human_bytes(static_cast<double>(bytes_done)),
                                  human_bytes(static_cast<double>(total_bytes)), records);
  if (seconds >= 0.5 && records > 0) {
    stats += fmt::format("  {:.0f} rec/s", static_cast<double>(records) / seconds);
    if (bytes_done > 0 && fraction < 1)
      stats += "  ETA " + clock_time(seconds * (1 - fraction) / fraction);
  }
  std::string percent = fmt::format("{:3.0f}% ", fraction * 100);
  // The bar takes what the numbers leave, between 10 and 40 columns; narrow terminals lose it.
  int room = width - 1 - static_cast<int>(percent.size() + stats.size()) - 3;
  std::string line = percent;
  if (room >= 10) {
    int bar = std::min(room, 40);
    int filled = static_cast<int>(fraction * bar);
    line += '[' + std::string(static_cast<std::size_t>(filled), '=');
    if (filled < bar) line += '>' + std::string(static_cast<std::size_t>(bar - filled - 1), ' ');
    line += "] ";
  }
  line += stats;
  if (static_cast<int>(line.size()) >= width) line.resize(static_cast<std::size_t>(std::max(width - 1, 0)));
  return line;
}

Progress::Progress(std::optional<std::uint64_t> total_bytes, int fd) : fd_(fd) {
  active_ = total_bytes && *total_bytes > 0 && !quiet() && ::isatty(fd) == 1;
  if (active_) total_ = *total_bytes;
  start_ = last_draw_ = std::chrono::steady_clock::now();
}

Progress::~Progress() { clear(); }

void Progress::update(std::uint64_t bytes_done, std::uint64_t records_done) {
  if (!active_) return;
  auto now = std::chrono::steady_clock::now();
  std::lock_guard lock(mutex_);
  if (drawn_ && now - last_draw_ < kRedrawInterval) return;
  last_draw_ = now;
  double seconds = std::chrono::duration<double>(now - start_).count();
  std::string line = "\r";
  line += render_progress(bytes_done, total_, records_done, seconds, terminal_width(fd_));
  line += "\x1b[K";  // erase what a longer previous line left
  draw(line);
  drawn_ = true;
}

void Progress::clear() {
  if (!active_) return;
  std::lock_guard lock(mutex_);
  if (!drawn_) return;
  draw("\r\x1b[K");
  drawn_ = false;
}

void Progress::draw(const std::string& text) {
  // A failed write to the terminal is not worth stopping the work for.
  std::size_t done = 0;
  while (done < text.size()) {
    ssize_t n = ::write(fd_, text.data() + done, text.size() - done);
    if (n <= 0) return;
    done += static_cast<std::size_t>(n);
  }
}

}  // namespace bertkit::records
