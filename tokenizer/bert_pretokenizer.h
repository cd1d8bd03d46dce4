#pragma once
// BertPreTokenizer: splits normalised text on whitespace (dropped) and punctuation (each mark a word of
// its own).
#include "tokenizer/unicode.h"

#include <cstdint>
#include <string_view>
#include <vector>

namespace bertkit::tok {

struct ByteSpan {
  std::uint32_t begin = 0, end = 0;
};

class BertPreTokenizer {
 public:
  explicit BertPreTokenizer(UnicodeProfile profile) : table_(CharTable::get(profile)) {
    for (char32_t c = 0; c < 128; ++c) ascii_[c] = table_.flags(c) & (charflag::kWhitespace | charflag::kPunct);
  }
  // Appends the words of text[from, to) as byte spans of `text`.
  void split(std::string_view text, std::uint32_t from, std::uint32_t to, std::vector<ByteSpan>& words) const;

 private:
  const CharTable& table_;
  std::uint8_t ascii_[128];  // whitespace / punctuation flags of ASCII, for the common case
};

}  // namespace bertkit::tok
