#pragma once
// BertPreTokenizer: splits normalised text on whitespace (dropped) and punctuation (each mark a word of
// its own).
#include "tokenizer/byte_vectors.h"
#include "tokenizer/pre_tokenizer.h"
#include "tokenizer/unicode.h"

#include <array>
#include <cstdint>
#include <string_view>
#include <vector>

namespace bertkit::tok {

class BertPreTokenizer : public PreTokenizer {
 public:
  explicit BertPreTokenizer(UnicodeProfile profile);
  // Appends the words of text[from, to) as byte spans of `text`.
  void split(std::string_view text, std::uint32_t from, std::uint32_t to, std::vector<ByteSpan>& words) const;
  const NormalizedText& pre_tokenize(const NormalizedText& text, std::uint32_t from, std::uint32_t to,
                                     std::vector<ByteSpan>& words, NormalizedText&) const override {
    split(text.text, from, to, words);
    return text;
  }
  bool independent_across_spaces() const override { return true; }  // a space always ends a word

 private:
  const CharTable& table_;
  // The class of each ASCII byte, for the common case: kSeparator (whitespace or punctuation), plus
  // kMark for punctuation.
  static constexpr std::uint8_t kSeparator = 1, kMark = 2;
  std::uint8_t ascii_[128];
  // The same classes as runs of byte values, tested sixteen bytes at a time. A fixed number, so the
  // tests unroll: both references' tables have two runs of ASCII whitespace and four of marks.
  std::array<ByteRange16, 2> space_ranges_;
  std::array<ByteRange16, 4> mark_ranges_;
};

}  // namespace bertkit::tok
