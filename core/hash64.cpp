#include "core/hash64.h"

#include <bit>
#include <cstring>

namespace bertkit::core {

namespace {

constexpr std::uint64_t P1 = 0x9E3779B185EBCA87ull, P2 = 0xC2B2AE3D27D4EB4Full, P3 = 0x165667B19E3779F9ull,
                        P4 = 0x85EBCA77C2B2AE63ull, P5 = 0x27D4EB2F165667C5ull;

std::uint64_t read64(const std::byte* p) {
  std::uint64_t v;
  std::memcpy(&v, p, 8);
  return v;  // little-endian hosts only, like the rest of bertkit's file formats
}

std::uint32_t read32(const std::byte* p) {
  std::uint32_t v;
  std::memcpy(&v, p, 4);
  return v;
}

std::uint64_t round(std::uint64_t acc, std::uint64_t input) {
  acc += input * P2;
  acc = std::rotl(acc, 31);
  return acc * P1;
}

std::uint64_t merge(std::uint64_t acc, std::uint64_t lane) {
  acc ^= round(0, lane);
  return acc * P1 + P4;
}

}  // namespace

Hash64::Hash64(std::uint64_t seed) : lanes_{seed + P1 + P2, seed + P2, seed, seed - P1}, seed_(seed) {}

void Hash64::update(std::span<const std::byte> bytes) {
  total_ += bytes.size();
  const std::byte* p = bytes.data();
  std::size_t n = bytes.size();
  if (buffered_ > 0) {
    std::size_t take = std::min(n, buffer_.size() - buffered_);
    std::memcpy(buffer_.data() + buffered_, p, take);
    buffered_ += take;
    p += take;
    n -= take;
    if (buffered_ < buffer_.size()) return;
    for (int i = 0; i < 4; ++i) lanes_[i] = round(lanes_[i], read64(buffer_.data() + 8 * i));
    buffered_ = 0;
  }
  for (; n >= 32; p += 32, n -= 32)
    for (int i = 0; i < 4; ++i) lanes_[i] = round(lanes_[i], read64(p + 8 * i));
  std::memcpy(buffer_.data(), p, n);
  buffered_ = n;
}

std::uint64_t Hash64::digest() const {
  std::uint64_t h;
  if (total_ >= 32) {
    h = std::rotl(lanes_[0], 1) + std::rotl(lanes_[1], 7) + std::rotl(lanes_[2], 12) + std::rotl(lanes_[3], 18);
    for (auto lane : lanes_) h = merge(h, lane);
  } else {
    h = seed_ + P5;
  }
  h += total_;
  const std::byte* p = buffer_.data();
  std::size_t n = buffered_;
  for (; n >= 8; p += 8, n -= 8) h = std::rotl(h ^ round(0, read64(p)), 27) * P1 + P4;
  if (n >= 4) {
    h = std::rotl(h ^ (std::uint64_t{read32(p)} * P1), 23) * P2 + P3;
    p += 4;
    n -= 4;
  }
  for (; n > 0; ++p, --n) h = std::rotl(h ^ (std::to_integer<std::uint64_t>(*p) * P5), 11) * P1;
  h ^= h >> 33;
  h *= P2;
  h ^= h >> 29;
  h *= P3;
  h ^= h >> 32;
  return h;
}

}  // namespace bertkit::core
