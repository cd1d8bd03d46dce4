#pragma once
// Every token's text (or id in decimal) laid out for `bertkit tokenize`'s output, which writes millions
// of tokens a second: a call per token (Vocab::token's range check, a memcpy of a few bytes, an integer
// formatted digit by digit) would cost as much as the tokenizing. The texts sit back to back and padded,
// so a short one is copied in one fixed-size move.
#include "tokenizer/tokenizer.h"

#include <cstdint>
#include <cstring>
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
  TokenTexts(const tok::Tokenizer& tokenizer, Style style);

  // Bytes past a token's text that write() may overwrite: the room a caller leaves after the last one.
  static constexpr std::size_t kSlack = 16;

  // The length of token `id`'s text; std::out_of_range for an id outside the vocabulary, as
  // Tokenizer::token.
  std::size_t size(std::int32_t id) const {
    const auto i = static_cast<std::size_t>(id);
    if (i >= starts_.size() - 1) throw std::out_of_range("token id outside the vocabulary");
    return starts_[i + 1] - starts_[i];
  }

  // Copies token `id` (checked by size()) to `out`, which has room for size(id) + kSlack bytes; returns
  // the end of its text.
  char* write(char* out, std::int32_t id) const {
    const auto i = static_cast<std::size_t>(id);
    const std::size_t n = starts_[i + 1] - starts_[i];
    const char* text = texts_.data() + starts_[i];
    if (n <= kSlack) std::memcpy(out, text, kSlack);  // a fixed size: one move, not a call
    else std::memcpy(out, text, n);
    return out + n;
  }

 private:
  std::string texts_;  // every token's text back to back, then kSlack bytes of padding
  std::vector<std::uint32_t> starts_;  // token i is texts_[starts_[i], starts_[i + 1])
};

}  // namespace bertkit::cmd
