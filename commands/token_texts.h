#pragma once
// Every token's text (or id in decimal) laid out for `bertkit tokenize`'s output, which writes millions
// of tokens a second: a call per token (Vocab::token's range check, a memcpy of a few bytes, an integer
// formatted digit by digit) would cost as much as the tokenizing. Each token has a fixed-size slot
// holding its text, the separator after it and, in the slot's last byte, their length: a token is one
// load, one store and an add, with no branch for the separator.
#include "tokenizer/tokenizer.h"

#include <cstdint>
#include <span>
#include <stdexcept>
#include <string>
#include <vector>

namespace bertkit::cmd {

class TokenTexts {
 public:
  enum class Style {
    Id,    // the id in decimal
    Raw,   // the token as it is (--format tokens)
    Json,  // a quoted JSON string, as records::JsonLine writes it (--format jsonl)
  };
  // `separator` is written between two tokens' texts.
  TokenTexts(const tok::Tokenizer& tokenizer, Style style, char separator);

  // The most bytes write_joined() may touch for `ids`: their texts, separators and a slot's width of
  // slack; std::out_of_range for an id outside the vocabulary.
  std::size_t room(std::span<const std::int32_t> ids) const;

  // Writes the texts of tokens `ids`, separated, at `out`, which has room(ids) bytes, and returns their
  // end; std::out_of_range for an id outside the vocabulary, as Tokenizer::token.
  char* write_joined(char* out, std::span<const std::int32_t> ids) const;

 private:
  template <std::size_t Width>
  char* write_slots(char* out, std::span<const std::int32_t> ids) const;
  void check(std::int32_t id) const {
    if (static_cast<std::size_t>(id) >= count_) throw std::out_of_range("token id outside the vocabulary");
  }

  // Texts up to this long: room for the longest for every token is cheap (it is not zeroed).
  static constexpr std::size_t kShortTexts = 64;

  std::size_t count_ = 0;  // tokens in the vocabulary
  std::size_t width_ = 0;  // bytes a slot takes: 8 when every id fits (vocabularies under 10 million), else 16
  // Token i's slot: its text and separator, padding, and their length in the last byte; a length of 0
  // says the text is too long for the slot, and the slot's first 8 bytes hold where it is in long_.
  std::vector<char> slots_;
  std::string long_;  // the long texts, each with its separator
  std::size_t longest_ = 0;  // the longest text with its separator
};

}  // namespace bertkit::cmd
