#pragma once
// The inputs of one command (-i, repeatable; "-" is stdin), read one after another. Every input is
// opened once up front, so a missing or unreadable file fails before any output file exists.
#include "records/byte_stream.h"

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace bertkit::records {

class InputSequence {
 public:
  // No paths means stdin.
  explicit InputSequence(std::vector<std::string> paths);

  std::size_t count() const { return inputs_.size(); }
  const std::string& path(std::size_t i) const { return inputs_[i].path; }
  // Input i, opened on first use; an input still open continues where it stopped.
  ByteStream& open(std::size_t i);
  // Releases input i. Files are reopened from the start by the next open(); stdin, which cannot be
  // reopened, stays open at its position.
  void close(std::size_t i);

  // Whether the input being read has no next line within `timeout_ms` (ByteStream::stalls); never
  // between inputs.
  bool stalls(int timeout_ms) const;

  std::uint64_t bytes_read() const;
  // Sum of the input sizes, when every input is a regular file.
  std::optional<std::uint64_t> total_bytes() const { return total_; }

 private:
  struct Input {
    std::string path;
    std::unique_ptr<ByteStream> stream;
    std::uint64_t consumed = 0;  // furthest offset reached, for progress
  };
  std::vector<Input> inputs_;
  std::optional<std::uint64_t> total_;
  std::optional<std::size_t> reading_;  // the input last opened, until it is closed
};

}  // namespace bertkit::records
