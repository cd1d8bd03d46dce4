#pragma once
// One input (a file or stdin) read in fixed-size chunks, so readers scan files of any size in constant
// memory. Readers look at data(), consume() what they used and refill() for more. A gzip input is
// decompressed on the way; other binary formats are refused by name at the first read
// (records/input_signature.h).
#include "records/gzip_inflater.h"

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace bertkit::records {

class ByteStream {
 public:
  // "-" = stdin. Throws a BadInput error naming the file when it cannot be opened or is a directory.
  explicit ByteStream(const std::string& path);
  ~ByteStream();
  ByteStream(const ByteStream&) = delete;
  ByteStream& operator=(const ByteStream&) = delete;

  // The name errors use: the path as given, "<stdin>" for "-".
  const std::string& name() const { return name_; }
  // Size in bytes when the input is a regular file (stdin redirected from a file counts).
  std::optional<std::uint64_t> size() const { return size_; }

  std::string_view data() const { return {buffer_.data() + pos_, end_ - pos_}; }
  void consume(std::size_t n) { pos_ += n; }
  // Drops consumed bytes and reads more; false once the input is exhausted and data() is empty.
  bool refill();
  // Bytes of the input consumed so far (compressed bytes for a gzip input: what size() counts).
  std::uint64_t offset() const;

  // Drops a UTF-8 byte order mark at the very start of the input.
  void skip_bom();

  // Reads up to the next '\n' (not included) into `line`, replacing its contents. Returns false at the
  // end of the input when no bytes are left. Bytes past `limit` are read but not kept, and `too_long`
  // is set, so an oversized line costs no memory and the next line is still found; or, with
  // `stop_when_too_long`, nothing more is read of it (the caller stops there).
  bool read_line(std::string& line, std::size_t limit, bool& too_long, bool stop_when_too_long = false);

  // Whether the next line has not arrived within `timeout_ms` (0: is not here now) on a pipe or
  // terminal: no whole line is buffered and nothing came to read. Never for a regular file, whose
  // bytes are all there, nor at the end of the input. A line that comes meanwhile is not read yet.
  bool stalls(int timeout_ms) const;

 private:
  // Reads the first bytes and decides what the input is; they become data() for text.
  void sniff();
  // Up to `size` bytes of text from the input; 0 at its end.
  std::size_t read_some(char* out, std::size_t size);

  int fd_ = 0;
  std::string name_;
  std::optional<std::uint64_t> size_;
  std::vector<char> buffer_;
  std::size_t pos_ = 0, end_ = 0;
  std::uint64_t offset_base_ = 0;  // input offset of buffer_[0]
  bool eof_ = false;
  bool sniffed_ = false;
  std::unique_ptr<GzipInflater> gzip_;
};

// Name used in messages for a path ("-" is stdin).
std::string input_name(const std::string& path);

}  // namespace bertkit::records
