#pragma once
// Where records go: stdout, a file, or a string in memory (`bertkit serve` answers requests with them).
// Records are appended whole to a buffer and written at flush
// points, so the output only ever holds complete records; a failed write rolls a file back to its last
// complete record.
#include "records/text_buffer.h"

#include <cstdint>
#include <string>
#include <string_view>

namespace bertkit::records {

// Thrown when the reader of stdout went away (EPIPE): the program ends quietly with status 0.
struct StdoutClosed {};

class RecordWriter {
 public:
  // "-" or "" = stdout. `keep` > 0 (--resume): the file's first `keep` bytes stay and records are
  // appended after them; the first `rewritten` bytes written (the header, which the writers write
  // again) are dropped, being already there.
  explicit RecordWriter(const std::string& path, std::uint64_t keep = 0, std::uint64_t rewritten = 0);
  // Appends every record to `*memory` (which outlives the writer) instead of writing a file.
  explicit RecordWriter(std::string* memory) : name_("<memory>"), memory_(memory) {}
  ~RecordWriter();
  RecordWriter(const RecordWriter&) = delete;
  RecordWriter& operator=(const RecordWriter&) = delete;

  // Appends one complete record (with its line end). Large buffers are written out on their own.
  void write(std::string_view record);
  // Appends one complete record that `render(TextBuffer&)` appends to the buffer itself, saving
  // write()'s copy (`bertkit tokenize` writes seven bytes a byte read); if it throws, nothing of the
  // record stays.
  template <typename Render>
  void write_with(Render&& render);
  // Writes every buffered record; call it at the end of each batch so finished work reaches the disk.
  void flush();
  // Writes at an absolute byte offset of a file output (npy header patching); not for stdout.
  void patch(std::uint64_t offset, std::string_view bytes);
  bool is_stdout() const { return fd_ == 1; }
  // Bytes of complete records in the output so far (after a failed write, what the file holds).
  std::uint64_t committed() const { return committed_; }
  const std::string& name() const { return name_; }

 private:
  void write_all(std::string_view bytes);
  void flush_if_full() {
    if (buffer_.size() >= kFlushThreshold) flush();
  }

  // Written out past this many bytes: small enough to stay in the cache it was written in.
  static constexpr std::size_t kFlushThreshold = 1 << 17;

  int fd_ = 1;
  std::string name_;
  TextBuffer buffer_;
  std::uint64_t committed_ = 0;  // bytes of complete records already in the file
  std::uint64_t drop_ = 0;       // bytes still to drop from what is written (a resumed header)
  std::string* memory_ = nullptr;  // set: records go here, not to fd_
};

template <typename Render>
void RecordWriter::write_with(Render&& render) {
  if (drop_) {  // the resumed header's bytes are dropped from the front: by write()
    TextBuffer record;
    render(record);
    return write(record.view());
  }
  const std::size_t before = buffer_.size();
  try {
    render(buffer_);
  } catch (...) {
    buffer_.truncate(before);
    throw;
  }
  flush_if_full();
}

}  // namespace bertkit::records
