#pragma once
// SHA-256 (FIPS 180-4), to check a downloaded file against the Hub's etag, which for large (LFS)
// files is their sha256. Hand-written: no dependency of bertkit offers one (libcurl does not export
// its own, and OpenSSL's headers would be a new build dependency). With the CPU's SHA extensions
// (cpu_features: not on the portable path) it hashes ~4x faster than the portable code, which would
// otherwise cost more than fetching a model over a fast link.
#include <array>
#include <cstdint>
#include <filesystem>
#include <span>
#include <string>

namespace bertkit::core {

class Sha256 {
 public:
  Sha256();
  void update(std::span<const std::byte> bytes);
  std::array<std::uint8_t, 32> digest();  // ends the computation
  std::string hex_digest();              // lower-case, 64 characters

 private:
  void blocks(const std::uint8_t* p, std::size_t count);  // whole 64-byte blocks

  std::array<std::uint32_t, 8> state_;
  std::array<std::uint8_t, 64> pending_{};
  std::size_t pending_size_ = 0;
  std::uint64_t total_ = 0;
};

// The sha256 of a whole file, lower-case hex; Runtime error naming the file when it cannot be read.
std::string sha256_file(const std::filesystem::path& path);

}  // namespace bertkit::core
