#pragma once
// Every token's text (or id in decimal) laid out for `bertkit tokenize`'s output, which writes millions
// of tokens a second: a call per token (Vocab::token's range check, a memcpy of a few bytes, an integer
// formatted digit by digit) would cost as much as the tokenizing. The texts sit back to back and padded,
// so a short one is copied in one fixed-size move.
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
  TokenTexts(const tok::Tokenizer& tokenizer, Style style);

  // Bytes past a token's text that write() may overwrite: the room a caller leaves after the last one.
  static constexpr std::size_t kSlack = 16;

  // The length of the longest text.
  std::size_t longest() const { return longest_; }
  // The length of token `id`'s text; std::out_of_range for an id outside the vocabulary.
  std::size_t size(std::int32_t id) const {
    check(id);
    return starts_[static_cast<std::size_t>(id) + 1] - starts_[static_cast<std::size_t>(id)];
  }

  // Writes the texts of tokens `ids` with `separator` between them at `out`, which has room for their
  // lengths, the separators and kSlack, and returns their end; std::out_of_range for an id outside the
  // vocabulary, as Tokenizer::token.
  char* write_joined(char* out, std::span<const std::int32_t> ids, char separator) const;

 private:
  void check(std::int32_t id) const {
    if (static_cast<std::size_t>(id) >= starts_.size() - 1) throw std::out_of_range("token id outside the vocabulary");
  }

  std::string texts_;  // every token's text back to back, then kSlack bytes of padding
  std::vector<std::uint32_t> starts_;  // token i is texts_[starts_[i], starts_[i + 1])
  std::size_t longest_ = 0;
};

}  // namespace bertkit::cmd
