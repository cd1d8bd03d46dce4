#pragma once
// An open-addressing hash map from short strings to ids: the WordPiece inner loop looks up every
// candidate piece, so this is the tokenizer's hottest data structure.
#include "tokenizer/image_table.h"

#include <cstdint>
#include <cstring>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace bertkit::tok {

class ImageReader;
class ImageWriter;

class TokenIndex {
 public:
  TokenIndex() = default;
  // The built table, for a compiled tokenizer; read() checks that the table has an empty slot (a
  // lookup ends) and that every key lies in the stored bytes and maps to an id below `ids`, and uses
  // the table where it lies in the image when it can (see ImageTable).
  void write(ImageWriter& out) const;
  static TokenIndex read(ImageReader& in, std::int32_t ids);
  // Keys are copied. Returns the ids of the first key given twice (the first id, then the second); the
  // table then maps that key to its first id.
  std::optional<std::pair<std::int32_t, std::int32_t>> build(
      const std::vector<std::pair<std::string_view, std::int32_t>>& entries);

  std::optional<std::int32_t> find(std::string_view key) const {
    if (slots_.empty()) return std::nullopt;
    const Slot& s = slots_[slot_of(slots_.data(), mask_, arena_.data(), key, hash(key))];
    if (s.id < 0) return std::nullopt;
    return s.id;
  }

  static std::uint64_t hash(std::string_view key) {
    // 8 bytes at a time with a multiply-xorshift mix: cheap for the 2-20 byte keys of a vocabulary.
    std::uint64_t h = 0x9E3779B97F4A7C15ull ^ key.size();
    const char* p = key.data();
    std::size_t n = key.size();
    while (n >= 8) {
      std::uint64_t v;
      std::memcpy(&v, p, 8);
      h = (h ^ v) * 0xFF51AFD7ED558CCDull;
      h ^= h >> 32;
      p += 8;
      n -= 8;
    }
    h = (h ^ load_short(p, n)) * 0xC4CEB9FE1A85EC53ull;
    h ^= h >> 29;
    h *= 0x9E3779B97F4A7C15ull;
    return h ^ (h >> 32);
  }

  // The n <= 8 bytes at p as one integer that tells apart any two strings of length n, reading no byte
  // beyond them: two overlapping loads for 4-8 bytes, three single bytes for 1-3 (no call to memcpy
  // or memcmp, which cost more than the hash itself on a short word).
  static std::uint64_t load_short(const char* p, std::size_t n) {
    if (n >= 4) {
      std::uint32_t lo, hi;
      std::memcpy(&lo, p, 4);
      std::memcpy(&hi, p + n - 4, 4);
      return lo | (static_cast<std::uint64_t>(hi) << 32);
    }
    if (n == 0) return 0;
    return static_cast<unsigned char>(p[0]) | (static_cast<std::uint64_t>(static_cast<unsigned char>(p[n / 2])) << 8) |
           (static_cast<std::uint64_t>(static_cast<unsigned char>(p[n - 1])) << 16);
  }
  // Whether the n bytes at a and b are equal, for short n (words); the same loads as load_short.
  static bool same_bytes(const char* a, const char* b, std::size_t n) {
    while (n > 8) {
      std::uint64_t x, y;
      std::memcpy(&x, a, 8);
      std::memcpy(&y, b, 8);
      if (x != y) return false;
      a += 8;
      b += 8;
      n -= 8;
    }
    return load_short(a, n) == load_short(b, n);
  }

 private:
  struct Slot {
    std::int32_t id = -1;
    std::uint32_t tag = 0;
    std::uint32_t offset = 0;
    std::uint32_t length = 0;
  };
  // The slot holding `key` (hashed to h), or the empty slot where it would go.
  static std::size_t slot_of(const Slot* slots, std::size_t mask, const char* arena, std::string_view key, std::uint64_t h) {
    auto tag = static_cast<std::uint32_t>(h >> 32);
    for (std::size_t i = h & mask;; i = (i + 1) & mask) {
      const Slot& s = slots[i];
      if (s.id < 0 || (s.tag == tag && s.length == key.size() && std::memcmp(arena + s.offset, key.data(), key.size()) == 0))
        return i;
    }
  }

  ImageTable<Slot> slots_;
  std::size_t mask_ = 0;
  ImageTable<char> arena_;  // the keys, one after another
};

}  // namespace bertkit::tok
