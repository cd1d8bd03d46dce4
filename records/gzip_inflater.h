#pragma once
// Decompresses a gzip input as it is read (zlib), so `bertkit embed -i corpus.txt.gz` streams in
// constant memory like a plain file. Concatenated members (`cat a.gz b.gz`) read as one text, as
// gzip -d reads them; damaged or truncated data is the user's input gone wrong (exit 3).
#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

struct z_stream_s;

namespace bertkit::records {

class GzipInflater {
 public:
  // `name` is the input's name for messages; `head` the compressed bytes already read from it.
  GzipInflater(std::string name, std::string_view head);
  ~GzipInflater();
  GzipInflater(const GzipInflater&) = delete;
  GzipInflater& operator=(const GzipInflater&) = delete;

  // Fills `out` with up to `size` decompressed bytes, reading compressed bytes from `fd` when it needs
  // them; 0 once every member has ended at the end of the input.
  std::size_t read(int fd, char* out, std::size_t size);
  // Compressed bytes decompressed so far (what progress compares with the file's size).
  std::uint64_t compressed_bytes() const;

 private:
  bool fill(int fd);  // false at the end of the compressed input

  std::string name_;
  std::unique_ptr<z_stream_s> stream_;
  std::vector<unsigned char> input_;
  bool input_ended_ = false;
  bool member_ended_ = false;
  std::uint64_t before_member_ = 0;  // compressed bytes of the members before this one
};

}  // namespace bertkit::records
