#pragma once
// UTF-8 decoding as the rest of bertkit sees it: input text is repaired once, at the edge, exactly as
// Python's bytes.decode("utf-8", errors="replace") does, so every later stage can assume valid UTF-8.
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <string>
#include <string_view>
#include <utility>

namespace bertkit::tok {

// U+FFFD REPLACEMENT CHARACTER in UTF-8: what replaces bytes that are not text.
inline constexpr std::string_view kReplacementCharacter = "\xEF\xBF\xBD";

// Appends `in` to `out` with every maximal invalid subsequence replaced by U+FFFD (the "maximal
// subpart" rule of Unicode §3.9, which CPython follows). Returns the number of replacements.
std::size_t repair_utf8(std::string_view in, std::string& out);

// Length of the valid UTF-8 prefix of `in` (== in.size() when it is all valid).
std::size_t valid_utf8_prefix(std::string_view in);

// Decodes the code point at `s[i]` of VALID UTF-8 and advances i.
inline char32_t next_code_point(std::string_view s, std::size_t& i) {
  auto b0 = static_cast<unsigned char>(s[i]);
  if (b0 < 0x80) {
    ++i;
    return b0;
  }
  if (b0 < 0xE0) {
    char32_t c = ((b0 & 0x1Fu) << 6) | (static_cast<unsigned char>(s[i + 1]) & 0x3Fu);
    i += 2;
    return c;
  }
  if (b0 < 0xF0) {
    char32_t c = ((b0 & 0x0Fu) << 12) | ((static_cast<unsigned char>(s[i + 1]) & 0x3Fu) << 6) |
                 (static_cast<unsigned char>(s[i + 2]) & 0x3Fu);
    i += 3;
    return c;
  }
  char32_t c = ((b0 & 0x07u) << 18) | ((static_cast<unsigned char>(s[i + 1]) & 0x3Fu) << 12) |
               ((static_cast<unsigned char>(s[i + 2]) & 0x3Fu) << 6) |
               (static_cast<unsigned char>(s[i + 3]) & 0x3Fu);
  i += 4;
  return c;
}

inline std::size_t utf8_length(char32_t c) { return c < 0x80 ? 1 : c < 0x800 ? 2 : c < 0x10000 ? 3 : 4; }

// Here, not in utf8.cpp: the normalisers append a character at a time, and a call (or push_back left
// out of line in a large unity batch) costs as much as the append.
inline void append_utf8(std::string& out, char32_t c) {
  if (c < 0x80) {
    out.push_back(static_cast<char>(c));
  } else if (c < 0x800) {
    out.push_back(static_cast<char>(0xC0 | (c >> 6)));
    out.push_back(static_cast<char>(0x80 | (c & 0x3F)));
  } else if (c < 0x10000) {
    out.push_back(static_cast<char>(0xE0 | (c >> 12)));
    out.push_back(static_cast<char>(0x80 | ((c >> 6) & 0x3F)));
    out.push_back(static_cast<char>(0x80 | (c & 0x3F)));
  } else {
    out.push_back(static_cast<char>(0xF0 | (c >> 18)));
    out.push_back(static_cast<char>(0x80 | ((c >> 12) & 0x3F)));
    out.push_back(static_cast<char>(0x80 | ((c >> 6) & 0x3F)));
    out.push_back(static_cast<char>(0x80 | (c & 0x3F)));
  }
}

// Length of the leading run of ASCII bytes of `s` (== s.size() when all of it is ASCII).
inline std::size_t ascii_prefix(std::string_view s) {
  std::size_t i = 0;
  // Eight bytes at a time: a run of ASCII has no high bit set.
  for (; i + 8 <= s.size(); i += 8) {
    std::uint64_t v;
    std::memcpy(&v, s.data() + i, 8);
    if (v & 0x8080808080808080ull) break;
  }
  while (i < s.size() && static_cast<unsigned char>(s[i]) < 0x80) ++i;
  return i;
}

// The end of the run of ASCII bytes from s[i] that are each followed by ASCII or by the end of `s`:
// what a normaliser that leaves ASCII alone may copy as it is. The last ASCII byte before a non-ASCII
// one is left out: it may combine with what follows (a letter with the marks after it).
inline std::size_t ascii_run_end(std::string_view s, std::size_t i) {
  const std::size_t end = i + ascii_prefix(s.substr(i));
  return end < s.size() && end > i ? end - 1 : end;
}

// Number of code points in valid UTF-8.
std::size_t count_code_points(std::string_view s);

// The byte span [begin, end) of valid UTF-8 `s` left when the characters `drop(c)` holds are taken off
// its left end (`left`) and its right end (`right`).
template <typename Drop>
std::pair<std::size_t, std::size_t> trimmed_span(std::string_view s, bool left, bool right, Drop&& drop) {
  std::size_t begin = 0, end = s.size();
  while (left && begin < end) {
    std::size_t next = begin;
    if (!drop(next_code_point(s, next))) break;
    begin = next;
  }
  while (right && end > begin) {
    std::size_t start = end - 1;
    while (start > begin && (static_cast<unsigned char>(s[start]) & 0xC0) == 0x80) --start;
    std::size_t i = start;
    if (!drop(next_code_point(s, i))) break;
    end = start;
  }
  return {begin, end};
}

}  // namespace bertkit::tok
