#pragma once
// One input (a file or stdin) read in fixed-size chunks, so readers scan files of any size in constant
// memory. Readers look at data(), consume() what they used and refill() for more.
#include <cstdint>
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
  // Bytes consumed so far.
  std::uint64_t offset() const { return offset_base_ + pos_; }

  // Drops a UTF-8 byte order mark at the very start of the input.
  void skip_bom();

  // Reads up to the next '\n' (not included) into `line`, replacing its contents. Returns false at the
  // end of the input when no bytes are left. Bytes past `limit` are read but not kept, and `too_long`
  // is set, so an oversized line costs no memory and the next line is still found.
  bool read_line(std::string& line, std::size_t limit, bool& too_long);

 private:
  int fd_ = 0;
  std::string name_;
  std::optional<std::uint64_t> size_;
  std::vector<char> buffer_;
  std::size_t pos_ = 0, end_ = 0;
  std::uint64_t offset_base_ = 0;  // input offset of buffer_[0]
  bool eof_ = false;
};

// Name used in messages for a path ("-" is stdin).
std::string input_name(const std::string& path);

}  // namespace bertkit::records
