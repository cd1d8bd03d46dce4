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
  explicit BertPreTokenizer(UnicodeProfile profile) : table_(CharTable::get(profile)) {}
  // Appends the words of text[from, to) as byte spans of `text`.
  void split(std::string_view text, std::uint32_t from, std::uint32_t to, std::vector<ByteSpan>& words) const;

 private:
  const CharTable& table_;
};

}  // namespace bertkit::tok
