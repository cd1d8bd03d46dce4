#include "tokenizer/bert_pretokenizer.h"

#include "core/error.h"
#include "tokenizer/byte_vectors.h"
#include "tokenizer/utf8.h"

#include <algorithm>
#include <cstring>

namespace bertkit::tok {

BertPreTokenizer::BertPreTokenizer(UnicodeProfile profile) : table_(CharTable::get(profile)) {
  using namespace charflag;
  for (char32_t c = 0; c < 128; ++c) {
    std::uint8_t f = table_.flags(c);
    ascii_[c] = static_cast<std::uint8_t>(((f & (kWhitespace | kPunct)) ? kSeparator : 0) | ((f & kPunct) ? kMark : 0));
  }
  std::size_t spaces = 0, marks = 0;
  for (unsigned c = 0; c < 128;) {
    unsigned end = c + 1;
    while (end < 128 && ascii_[end] == ascii_[c]) ++end;
    const ByteRange16 range(static_cast<unsigned char>(c), static_cast<unsigned char>(end - 1));
    if (ascii_[c] == kSeparator && spaces < space_ranges_.size())
      space_ranges_[spaces++] = range;
    else if (ascii_[c] != 0 && marks < mark_ranges_.size())
      mark_ranges_[marks++] = range;
    else if (ascii_[c] != 0)
      runtime_error("the pre-tokenizer's ASCII classes have more ranges than its fast path holds");
    c = end;
  }
}

void BertPreTokenizer::split(std::string_view text, std::uint32_t from, std::uint32_t to,
                             std::vector<ByteSpan>& words) const {
  using namespace charflag;
  std::uint32_t word_start = from;
  bool in_word = false;
  std::uint32_t i = from;
  while (i < to) {
    if (static_cast<unsigned char>(text[i]) < 0x80) {
      // Up to 48 ASCII bytes at once (whole 16-byte chunks, and fewer than 64 so that a mark in the last
      // one ends at bit 63 at most): classify them into bit masks, then pair the k-th start of a word or
      // mark with the k-th end, without a branch per byte.
      const std::uint32_t limit = std::min<std::uint32_t>(to - i, 48);
      const char* bytes = text.data() + i;
      std::uint64_t separator = 0, punct = 0;
      std::uint32_t n = 0;  // the ASCII bytes classified
      for (; n + 16 <= limit; n += 16) {
        std::uint64_t halves[2];
        std::memcpy(halves, bytes + n, 16);
        if ((halves[0] | halves[1]) & 0x8080808080808080ull) break;  // the loop below stops at it
        const Bytes16 v = load16(bytes + n);
        Bytes16 space{}, mark{};
        for (const ByteRange16& r : space_ranges_) space |= in_range(v, r);
        for (const ByteRange16& r : mark_ranges_) mark |= in_range(v, r);
        separator |= static_cast<std::uint64_t>(lane_bits(space | mark)) << n;
        punct |= static_cast<std::uint64_t>(lane_bits(mark)) << n;
      }
      for (; n < limit && static_cast<unsigned char>(bytes[n]) < 0x80; ++n) {
        std::uint8_t c = ascii_[static_cast<unsigned char>(bytes[n])];
        separator |= static_cast<std::uint64_t>(c & kSeparator) << n;
        punct |= static_cast<std::uint64_t>(c >> 1) << n;
      }
      const std::uint64_t classified = (std::uint64_t{1} << n) - 1;
      const std::uint64_t word = ~separator & classified;
      const std::uint64_t after_word = (word << 1) | (in_word ? 1 : 0);  // bit k: byte k-1 is in a word
      std::uint64_t starts = (word & ~after_word) | punct;
      std::uint64_t ends = (separator & after_word) | (punct << 1);
      if (in_word && ends) {
        words.push_back({word_start, i + static_cast<std::uint32_t>(__builtin_ctzll(ends))});
        ends &= ends - 1;
        in_word = false;
      }
      while (starts) {
        const std::uint32_t start = i + static_cast<std::uint32_t>(__builtin_ctzll(starts));
        starts &= starts - 1;
        if (!ends) {  // a word that goes on past these bytes
          word_start = start;
          in_word = true;
          break;
        }
        words.push_back({start, i + static_cast<std::uint32_t>(__builtin_ctzll(ends))});
        ends &= ends - 1;
      }
      i += n;
      continue;
    }
    const std::uint32_t start = i;
    std::size_t next = i;
    const std::uint8_t f = table_.flags(next_code_point(text, next)) & (kWhitespace | kPunct);
    i = static_cast<std::uint32_t>(next);
    if (f == 0) {
      if (!in_word) {
        word_start = start;
        in_word = true;
      }
      continue;
    }
    if (in_word) {
      words.push_back({word_start, start});
      in_word = false;
    }
    if (f & kPunct) words.push_back({start, i});
  }
  if (in_word) words.push_back({word_start, to});
}

}  // namespace bertkit::tok
