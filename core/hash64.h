#pragma once
// XXH64 (Yann Collet's xxHash, 64-bit), streaming: the checksum of converted model files. Fast enough
// (several GB/s) that `convert --check` of a large model takes a fraction of a second.
#include <array>
#include <cstddef>
#include <cstdint>
#include <span>

namespace bertkit::core {

class Hash64 {
 public:
  explicit Hash64(std::uint64_t seed = 0);
  void update(std::span<const std::byte> bytes);
  std::uint64_t digest() const;

 private:
  std::array<std::uint64_t, 4> lanes_;
  std::array<std::byte, 32> buffer_{};
  std::size_t buffered_ = 0;
  std::uint64_t total_ = 0;
  std::uint64_t seed_;
};

}  // namespace bertkit::core
