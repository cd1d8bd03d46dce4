#include "records/gzip_inflater.h"

#include "core/error.h"

#include <unistd.h>
#include <zlib.h>

#include <algorithm>
#include <cerrno>
#include <cstring>

namespace bertkit::records {

namespace {
constexpr std::size_t kCompressedChunk = 64 * 1024;
constexpr int kGzipOnly = 15 + 16;  // largest window, gzip header and trailer (not zlib or raw deflate)
}  // namespace

GzipInflater::GzipInflater(std::string name, std::string_view head)
    : name_(std::move(name)), stream_(std::make_unique<z_stream_s>()), input_(std::max(kCompressedChunk, head.size())) {
  if (inflateInit2(stream_.get(), kGzipOnly) != Z_OK) runtime_error("{}: cannot start gzip decompression", name_);
  std::memcpy(input_.data(), head.data(), head.size());
  stream_->next_in = input_.data();
  stream_->avail_in = static_cast<uInt>(head.size());
}

GzipInflater::~GzipInflater() { inflateEnd(stream_.get()); }

bool GzipInflater::fill(int fd) {
  if (input_ended_) return false;
  for (;;) {
    ssize_t n = ::read(fd, input_.data(), input_.size());
    if (n > 0) {
      stream_->next_in = input_.data();
      stream_->avail_in = static_cast<uInt>(n);
      return true;
    }
    if (n == 0) {
      input_ended_ = true;
      return false;
    }
    if (errno != EINTR) runtime_error("{}: cannot read: {}", name_, std::strerror(errno));
  }
}

std::size_t GzipInflater::read(int fd, char* out, std::size_t size) {
  z_stream_s& z = *stream_;
  for (;;) {
    if (z.avail_in == 0 && !fill(fd)) {
      if (member_ended_) return 0;
      bad_input("{}: the gzip data ends before its end (is the file truncated?)", name_);
    }
    if (member_ended_) {  // more bytes after a member: the next member of a concatenation
      before_member_ += z.total_in;
      inflateReset(&z);
      member_ended_ = false;
    }
    z.next_out = reinterpret_cast<Bytef*>(out);
    z.avail_out = static_cast<uInt>(size);
    int status = inflate(&z, Z_NO_FLUSH);
    std::size_t produced = size - z.avail_out;
    if (status == Z_STREAM_END)
      member_ended_ = true;
    else if (status != Z_OK && status != Z_BUF_ERROR)
      bad_input("{}: damaged gzip data ({})", name_, z.msg ? z.msg : "inflate failed");
    if (produced > 0) return produced;
  }
}

std::uint64_t GzipInflater::compressed_bytes() const { return before_member_ + stream_->total_in; }

}  // namespace bertkit::records
