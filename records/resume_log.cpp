#include "records/resume_log.h"

#include "core/error.h"
#include "core/setting.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <fmt/format.h>

#include <cerrno>
#include <charconv>
#include <cstring>

namespace bertkit::records {

namespace {

constexpr std::string_view kMagic = "bertkit-resume 1 ";

// "RECORDS BYTES" of one checkpoint line (without its '\n'); false for anything else.
bool parse_checkpoint(std::string_view line, std::uint64_t& records, std::uint64_t& bytes) {
  const char* end = line.data() + line.size();
  auto [p, ec] = std::from_chars(line.data(), end, records);
  if (ec != std::errc() || p == end || *p != ' ') return false;
  auto [q, ec2] = std::from_chars(p + 1, end, bytes);
  return ec2 == std::errc() && q == end;
}

std::string read_whole(int fd, const std::string& path) {
  std::string bytes;
  char buffer[1 << 16];
  for (;;) {
    const ssize_t n = ::read(fd, buffer, sizeof buffer);
    if (n == 0) return bytes;
    if (n < 0) {
      if (errno == EINTR) continue;
      runtime_error("cannot read {}: {}", path, std::strerror(errno));
    }
    bytes.append(buffer, static_cast<std::size_t>(n));
  }
}

void write_all(int fd, std::string_view bytes, const std::string& path) {
  while (!bytes.empty()) {
    const ssize_t n = ::write(fd, bytes.data(), bytes.size());
    if (n < 0 && errno == EINTR) continue;
    if (n < 0) runtime_error("cannot write {}: {}", path, std::strerror(errno));
    bytes.remove_prefix(static_cast<std::size_t>(n));
  }
}

}  // namespace

std::string resume_settings_line(std::string_view settings) { return fmt::format("{}{}\n", kMagic, settings); }

ResumePoint find_resume_point(std::string_view log, std::string_view settings_line, std::uint64_t output_size,
                              const std::string& log_name) {
  const std::size_t first_end = log.find('\n');
  if (first_end == std::string_view::npos) return {};  // cut off before its first checkpoint: start over
  const std::string_view first = log.substr(0, first_end + 1);
  if (!first.starts_with(kMagic)) bad_input("{}: not a bertkit resume log", log_name);
  if (first != settings_line) {
    auto shown = [](std::string_view line) { return line.substr(kMagic.size(), line.size() - kMagic.size() - 1); };
    usage_error("{}: the earlier run was {}, this one is {}: {} continues the same command only (or remove "
                "the output to start over)",
                log_name, shown(first), shown(settings_line), Setting::Resume);
  }
  ResumePoint point;
  std::size_t at = first.size();
  for (;;) {
    const std::size_t end = log.find('\n', at);
    if (end == std::string_view::npos) break;  // a checkpoint cut off while written
    std::uint64_t records = 0, bytes = 0;
    if (!parse_checkpoint(log.substr(at, end - at), records, bytes))
      bad_input("{}: line '{}' is not a checkpoint (RECORDS BYTES)", log_name, log.substr(at, end - at));
    if (at == first.size()) point.header_bytes = bytes;
    else if (records < point.records || bytes < point.bytes)
      bad_input("{}: checkpoint '{}' goes back: not the log of one run", log_name, log.substr(at, end - at));
    at = end + 1;
    if (bytes > output_size) break;  // the output was cut before this checkpoint
    point.records = records;
    point.bytes = bytes;
    point.log_bytes = at;
  }
  if (point.log_bytes == 0) return {};  // not even the header is there: start over
  return point;
}

ResumeLog::ResumeLog(const std::string& output, std::string settings, bool resume) {
  const bool file = !output.empty() && output != "-";
  if (resume && !file) usage_error("{} needs -o FILE: it continues the output an earlier run wrote to a file", Setting::Resume);
  if (!file || settings.empty()) return;
  path_ = output + ".resume";
  settings_ = resume_settings_line(settings);
  struct stat out {};
  const bool output_exists = ::stat(output.c_str(), &out) == 0;
  if (resume && output_exists) {
    const int fd = ::open(path_.c_str(), O_RDWR | O_CLOEXEC);
    if (fd < 0)
      usage_error("{}: {} exists but {} does not ({}): the run that wrote it completed, or did not record "
                  "where it stopped; remove {} to start over",
                  Setting::Resume, output, path_, std::strerror(errno), output);
    fd_ = fd;
    start_ = find_resume_point(read_whole(fd_, path_), settings_, static_cast<std::uint64_t>(out.st_size), path_);
    if (start_.log_bytes) {
      if (::ftruncate(fd_, static_cast<off_t>(start_.log_bytes)) != 0 ||
          ::lseek(fd_, static_cast<off_t>(start_.log_bytes), SEEK_SET) < 0)
        runtime_error("cannot write {}: {}", path_, std::strerror(errno));
      return;
    }
    ::close(fd_);
  }
  fd_ = ::open(path_.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
  if (fd_ < 0) runtime_error("cannot create {}: {}", path_, std::strerror(errno));
  write_all(fd_, settings_, path_);
}

ResumeLog::~ResumeLog() {
  if (fd_ >= 0) ::close(fd_);
}

void ResumeLog::checkpoint(std::uint64_t records, std::uint64_t bytes) {
  if (fd_ < 0) return;
  write_all(fd_, fmt::format("{} {}\n", records, bytes), path_);
}

void ResumeLog::complete() {
  if (fd_ < 0) return;
  ::close(fd_);
  fd_ = -1;
  ::unlink(path_.c_str());
}

}  // namespace bertkit::records
