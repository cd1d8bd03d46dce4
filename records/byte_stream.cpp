#include "records/byte_stream.h"

#include "records/input_signature.h"
#include "core/error.h"

#include <fcntl.h>
#include <poll.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>

namespace bertkit::records {

namespace {
// Small enough that the lines split out of a chunk are still in the cache the read put them in.
constexpr std::size_t kChunkBytes = 64 * 1024;
constexpr std::string_view kBom = "\xEF\xBB\xBF";
}  // namespace

std::string input_name(const std::string& path) { return path == "-" ? "<stdin>" : path; }

ByteStream::ByteStream(const std::string& path) : name_(input_name(path)), buffer_(kChunkBytes) {
  if (path != "-") {
    fd_ = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
    // A file that cannot be opened is the user's input gone wrong (exit 3, as for a model file); a read
    // that fails later is an I/O error (exit 1).
    if (fd_ < 0) bad_input("{}: cannot open: {}", path, std::strerror(errno));
  }
  struct stat st{};
  if (::fstat(fd_, &st) == 0) {
    if (S_ISDIR(st.st_mode)) {
      if (fd_ > 2) ::close(fd_);
      bad_input("{}: cannot read: it is a directory", name_);
    }
    if (S_ISREG(st.st_mode)) {
      // stdin redirected from a file may already be partly read; only the rest is ahead of us.
      off_t at = ::lseek(fd_, 0, SEEK_CUR);
      std::uint64_t start = at > 0 ? static_cast<std::uint64_t>(at) : 0;
      size_ = static_cast<std::uint64_t>(st.st_size) > start ? static_cast<std::uint64_t>(st.st_size) - start : 0;
    }
  }
}

ByteStream::~ByteStream() {
  if (fd_ > 2) ::close(fd_);
}

std::uint64_t ByteStream::offset() const { return gzip_ ? gzip_->compressed_bytes() : offset_base_ + pos_; }

std::size_t ByteStream::read_some(char* out, std::size_t size) {
  if (gzip_) return gzip_->read(fd_, out, size);
  for (;;) {
    ssize_t n = ::read(fd_, out, size);
    if (n >= 0) return static_cast<std::size_t>(n);
    if (errno != EINTR) runtime_error("{}: cannot read: {}", name_, std::strerror(errno));
  }
}

void ByteStream::sniff() {
  sniffed_ = true;
  // One read decides almost always; more only while the bytes so far begin a signature, so a line
  // typed into a pipe is never held back.
  InputSignature signature;
  do {
    std::size_t n = read_some(buffer_.data() + end_, buffer_.size() - end_);
    if (n == 0) eof_ = true;
    end_ += n;
    signature = sniff_input({buffer_.data(), end_});
  } while (signature.kind == InputKind::NeedMore && !eof_ && end_ < buffer_.size());
  if (signature.kind == InputKind::Binary)
    bad_input("{}: this is {}, not text: {}", name_, signature.format, signature.advice);
  if (signature.kind == InputKind::Gzip) {
    gzip_ = std::make_unique<GzipInflater>(name_, std::string_view(buffer_.data(), end_));
    end_ = 0;
    eof_ = false;
  }
}

bool ByteStream::refill() {
  if (pos_ > 0) {
    std::memmove(buffer_.data(), buffer_.data() + pos_, end_ - pos_);
    offset_base_ += pos_;
    end_ -= pos_;
    pos_ = 0;
  }
  if (!sniffed_) {
    sniff();
    if (end_ > 0) return true;
  }
  while (!eof_ && end_ < buffer_.size()) {
    std::size_t n = read_some(buffer_.data() + end_, buffer_.size() - end_);
    if (n > 0) {
      end_ += n;
      return true;
    }
    eof_ = true;
  }
  return end_ > pos_;
}

void ByteStream::skip_bom() {
  while (data().size() < kBom.size() && !eof_ && refill()) {
  }
  if (data().starts_with(kBom)) consume(kBom.size());
}

bool ByteStream::read_line(std::string& line, std::size_t limit, bool& too_long, bool stop_when_too_long) {
  line.clear();
  too_long = false;
  bool any = false;
  for (;;) {
    if (data().empty() && !refill()) return any;
    any = true;
    std::string_view chunk = data();
    const void* nl = std::memchr(chunk.data(), '\n', chunk.size());
    std::size_t take = nl ? static_cast<std::size_t>(static_cast<const char*>(nl) - chunk.data()) : chunk.size();
    std::size_t room = limit - std::min(limit, line.size());
    if (take > room) {
      too_long = true;
      if (stop_when_too_long) {
        line.append(chunk.data(), room);
        consume(room);
        return true;
      }
    }
    line.append(chunk.data(), std::min(take, room));
    consume(nl ? take + 1 : take);
    if (nl) return true;
  }
}

bool ByteStream::stalls(int timeout_ms) const {
  if (size_ || eof_) return false;
  const std::string_view buffered = data();
  if (std::memchr(buffered.data(), '\n', buffered.size())) return false;
  pollfd p{fd_, POLLIN, 0};
  // Readable, at its end (POLLHUP) or in error: the next read says which. A signal cuts the wait
  // short: the records already read are computed, and the next read waits for more.
  return ::poll(&p, 1, timeout_ms) <= 0;
}

}  // namespace bertkit::records
