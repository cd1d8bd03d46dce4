#include "records/record_writer.h"

#include "core/error.h"

#include <fcntl.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstring>

namespace bertkit::records {

RecordWriter::RecordWriter(const std::string& path, std::uint64_t keep, std::uint64_t rewritten) {
  if (path.empty() || path == "-") {
    name_ = "<stdout>";
    return;
  }
  name_ = path;
  fd_ = ::open(path.c_str(), O_WRONLY | O_CREAT | (keep ? 0 : O_TRUNC) | O_CLOEXEC, 0644);
  if (fd_ < 0) runtime_error("cannot create {}: {}", path, std::strerror(errno));
  if (keep == 0) return;
  if (::ftruncate(fd_, static_cast<off_t>(keep)) != 0 || ::lseek(fd_, static_cast<off_t>(keep), SEEK_SET) < 0)
    runtime_error("cannot write {}: {}", path, std::strerror(errno));
  committed_ = keep;
  drop_ = rewritten;
}

RecordWriter::~RecordWriter() {
  try {
    flush();
  } catch (...) {
    // Destructors run during unwinding; the error that started it is the one the user sees.
  }
  if (fd_ > 2) ::close(fd_);
}

void RecordWriter::write(std::string_view record) {
  if (drop_) {
    const std::size_t n = static_cast<std::size_t>(std::min<std::uint64_t>(drop_, record.size()));
    record.remove_prefix(n);
    drop_ -= n;
  }
  if (record.size() >= kFlushThreshold) {
    // Written from where it is: a copy into the buffer would cost its size in memory and time again.
    flush();
    write_all(record);
    committed_ += record.size();
    return;
  }
  buffer_.append(record);
  flush_if_full();
}

void RecordWriter::flush() {
  if (buffer_.empty()) return;
  // The buffer keeps its capacity: refilled from empty, it would be copied each time it doubled.
  try {
    write_all(buffer_.view());
  } catch (...) {
    buffer_.clear();  // not written again by the destructor's flush
    throw;
  }
  committed_ += buffer_.size();
  buffer_.clear();
}

void RecordWriter::write_all(std::string_view bytes) {
  if (memory_) {
    memory_->append(bytes);
    return;
  }
  while (!bytes.empty()) {
    ssize_t n = ::write(fd_, bytes.data(), bytes.size());
    if (n >= 0) {
      bytes.remove_prefix(static_cast<std::size_t>(n));
      continue;
    }
    if (errno == EINTR) continue;
    if (errno == EPIPE && fd_ == 1) throw StdoutClosed{};
    int saved = errno;
    // Drop the partly written batch so the file ends at its last complete record.
    if (fd_ > 2 && ::ftruncate(fd_, static_cast<off_t>(committed_)) == 0)
      ::lseek(fd_, static_cast<off_t>(committed_), SEEK_SET);
    runtime_error("cannot write {}: {}", name_, std::strerror(saved));
  }
}

void RecordWriter::patch(std::uint64_t offset, std::string_view bytes) {
  flush();
  if (fd_ == 1 || memory_) runtime_error("cannot patch {}: not a file", name_);
  if (::pwrite(fd_, bytes.data(), bytes.size(), static_cast<off_t>(offset)) !=
      static_cast<ssize_t>(bytes.size()))
    runtime_error("cannot write {}: {}", name_, std::strerror(errno));
}

}  // namespace bertkit::records
