#pragma once
// Sixteen bytes at a time through the compiler's portable vector extension (SSE2 on x86-64, NEON on
// ARM): the ASCII paths of the normaliser and the pre-tokeniser classify and change bytes without a
// table load or a branch per byte.
#include <cstdint>
#include <cstring>

namespace bertkit::tok {

using Bytes16 = unsigned char __attribute__((vector_size(16)));

inline Bytes16 load16(const char* p) {
  Bytes16 v;
  std::memcpy(&v, p, sizeof v);
  return v;
}

inline void store16(char* p, Bytes16 v) { std::memcpy(p, &v, sizeof v); }

// A range of byte values lo..hi, as vectors ready for in_range.
struct ByteRange16 {
  Bytes16 lo, width;  // every lane lo, every lane hi - lo
  ByteRange16() : ByteRange16(0xFF, 0xFF) {}  // 0xFF: a byte that valid UTF-8 never holds
  ByteRange16(unsigned char lo_byte, unsigned char hi_byte)
      : lo(Bytes16{} + lo_byte), width(Bytes16{} + static_cast<unsigned char>(hi_byte - lo_byte)) {}
};

// All bits of the lanes whose byte is in the range (one subtraction: below lo wraps above the width).
inline Bytes16 in_range(Bytes16 v, const ByteRange16& r) { return reinterpret_cast<Bytes16>((v - r.lo) <= r.width); }

// Whether any lane has a bit set.
inline bool any_lane(Bytes16 lanes) {
  std::uint64_t low, high;
  std::memcpy(&low, &lanes, 8);
  std::memcpy(&high, reinterpret_cast<const char*>(&lanes) + 8, 8);
  return (low | high) != 0;
}

// Bit k set when lane k is set (lanes are all ones or zero, as comparisons give them).
inline std::uint32_t lane_bits(Bytes16 lanes) {
  std::uint64_t low, high;
  std::memcpy(&low, &lanes, 8);
  std::memcpy(&high, reinterpret_cast<const char*>(&lanes) + 8, 8);
  // A multiply gathers bit 0 of each of the eight bytes into the top byte.
  constexpr std::uint64_t kLowBits = 0x0101010101010101ull, kGather = 0x0102040810204080ull;
  return static_cast<std::uint32_t>(((low & kLowBits) * kGather) >> 56) |
         static_cast<std::uint32_t>((((high & kLowBits) * kGather) >> 56) << 8);
}

}  // namespace bertkit::tok
