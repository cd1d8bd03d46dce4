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
  const std::string& token(std::int32_t id) const { return tokens_.at(static_cast<std::size_t>(id)); }
  std::size_t size() const { return tokens_.size(); }
  const std::vector<std::string>& tokens() const { return tokens_; }
  const TokenIndex& index() const { return index_; }

 private:
  Vocab(std::vector<std::string> tokens, std::string_view source, bool from_lines, std::optional<TokenIndex> index = {});
  static std::vector<std::string> lines(std::string_view text, std::string_view source);
  std::vector<std::string> tokens_;
  TokenIndex index_;
};

}  // namespace bertkit::tok
