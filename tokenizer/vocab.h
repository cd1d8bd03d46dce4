#pragma once
// The token <-> id table of a WordPiece model, with a lookup built for the tokenizer's inner loop.
#include "tokenizer/token_index.h"

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace bertkit::tok {

class Vocab {
 public:
  // vocab.txt: one token per line, split on '\n' only (a token may contain U+2028 or '\r').
  // `source` names the file in errors.
  static Vocab from_text(std::string_view text, std::string_view source);
  // The same with the token index already built from this text (a compiled tokenizer's).
  static Vocab from_text(std::string_view text, std::string_view source, TokenIndex index);
  // tokenizer.json's WordPiece "vocab" map.
  static Vocab from_pairs(std::vector<std::pair<std::string, std::int64_t>> entries, std::string_view source);

  std::optional<std::int32_t> find(std::string_view token) const { return index_.find(token); }
  // Throws std::out_of_range for an id outside the vocabulary.
  std::string_view token(std::int32_t id) const;
  std::size_t size() const { return starts_.size() - 1; }
  // Every token in id order, each followed by '\n': what tells two vocabularies apart.
  std::string_view joined() const { return std::string_view(text_).substr(starts_.front()); }
  const TokenIndex& index() const { return index_; }

 private:
  // Tokens in one string instead of one std::string each: a 30,000-token vocabulary is then two
  // allocations at start-up, not thirty thousand.
  Vocab(std::string text, std::vector<std::uint32_t> starts, std::string_view source, bool from_lines,
        std::optional<TokenIndex> index);
  static Vocab lines(std::string_view text, std::string_view source, std::optional<TokenIndex> index);

  std::string text_;  // every token followed by '\n' (a token may itself hold '\n' when not from lines)
  std::vector<std::uint32_t> starts_;  // token i is text_[starts_[i], starts_[i + 1] - 1); one more than tokens
  TokenIndex index_;
};

}  // namespace bertkit::tok
