#include "tokenizer/utf8.h"

#include <cstdint>
#include <cstring>

namespace bertkit::tok {

namespace {

// Length of the well-formed sequence starting at in[i], or of its longest valid prefix negated (a
// maximal subpart, always >= 1 byte) when it is ill-formed.
int sequence_length(std::string_view in, std::size_t i) {
  auto byte = [&](std::size_t k) { return static_cast<unsigned char>(in[k]); };
  unsigned char b0 = byte(i);
  if (b0 < 0x80) return 1;
  int need;
  unsigned char lo = 0x80, hi = 0xBF;  // allowed range of the second byte
  if (b0 >= 0xC2 && b0 <= 0xDF) {
    need = 2;
  } else if (b0 >= 0xE0 && b0 <= 0xEF) {
    need = 3;
    if (b0 == 0xE0) lo = 0xA0;
    if (b0 == 0xED) hi = 0x9F;  // no surrogates
  } else if (b0 >= 0xF0 && b0 <= 0xF4) {
    need = 4;
    if (b0 == 0xF0) lo = 0x90;
    if (b0 == 0xF4) hi = 0x8F;
  } else {
    return -1;
  }
  for (int k = 1; k < need; ++k) {
    if (i + k >= in.size()) return -k;
    unsigned char b = byte(i + k);
    bool ok = k == 1 ? (b >= lo && b <= hi) : (b >= 0x80 && b <= 0xBF);
    if (!ok) return -k;
  }
  return need;
}

}  // namespace

std::size_t repair_utf8(std::string_view in, std::string& out) {
  std::size_t replaced = 0;
  std::size_t i = 0;
  out.reserve(out.size() + in.size());
  while (i < in.size()) {
    // Copy ASCII runs quickly: most text is mostly ASCII.
    std::size_t run = i;
    while (run < in.size() && static_cast<unsigned char>(in[run]) < 0x80) ++run;
    out.append(in.data() + i, run - i);
    i = run;
    if (i >= in.size()) break;
    int len = sequence_length(in, i);
    if (len > 0) {
      out.append(in.data() + i, static_cast<std::size_t>(len));
      i += static_cast<std::size_t>(len);
    } else {
      out.append(kReplacementCharacter);
      ++replaced;
      i += static_cast<std::size_t>(-len);
    }
  }
  return replaced;
}

std::size_t valid_utf8_prefix(std::string_view in) {
  std::size_t i = 0;
  constexpr std::uint64_t kHigh = 0x8080808080808080ull;
  while (i < in.size()) {
    // ASCII 32 and 8 bytes at a time: vocabularies and most text are mostly ASCII.
    std::uint64_t w[4];
    if (i + 32 <= in.size() && (std::memcpy(w, in.data() + i, 32), ((w[0] | w[1] | w[2] | w[3]) & kHigh) == 0)) {
      i += 32;
      continue;
    }
    if (i + 8 <= in.size() && (std::memcpy(w, in.data() + i, 8), (w[0] & kHigh) == 0)) {
      i += 8;
      continue;
    }
    int len = sequence_length(in, i);
    if (len < 0) return i;
    i += static_cast<std::size_t>(len);
  }
  return i;
}

std::size_t count_code_points(std::string_view s) {
  std::size_t n = 0;
  for (char ch : s) n += (static_cast<unsigned char>(ch) & 0xC0) != 0x80;
  return n;
}

}  // namespace bertkit::tok
