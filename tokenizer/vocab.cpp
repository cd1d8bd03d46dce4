#include "tokenizer/vocab.h"

#include "core/error.h"
#include "tokenizer/utf8.h"

#include <algorithm>

namespace bertkit::tok {

Vocab::Vocab(std::vector<std::string> tokens, std::string_view source, bool from_lines, std::optional<TokenIndex> index)
    : tokens_(std::move(tokens)) {
  std::vector<std::pair<std::string_view, std::int32_t>> entries;
  if (!index) entries.reserve(tokens_.size());
  for (std::size_t i = 0; i < tokens_.size(); ++i) {
    // transformers refuses such a file when decoding it; a partial UTF-8 sequence would also let
    // WordPiece match inside a character.
    if (valid_utf8_prefix(tokens_[i]) != tokens_[i].size())
      bad_input("{}:{}: token is not valid UTF-8", source, from_lines ? i + 1 : i);
    if (!index && !tokens_[i].empty()) entries.emplace_back(tokens_[i], static_cast<std::int32_t>(i));
  }
  if (index) {  // built from this vocabulary when it was compiled, duplicates refused then
    index_ = std::move(*index);
    return;
  }
  if (auto dup = index_.build(entries)) {
    auto [first, second] = *dup;
    if (from_lines)
      bad_input("{}:{}: duplicate token '{}' (first on line {})", source, second + 1, tokens_[static_cast<std::size_t>(second)],
                first + 1);
    bad_input("{}: ids {} and {} are the same token '{}'", source, first, second, tokens_[static_cast<std::size_t>(first)]);
  }
}

std::vector<std::string> Vocab::lines(std::string_view text, std::string_view source) {
  std::vector<std::string> tokens;
  tokens.reserve(text.size() / 6);
  std::size_t start = 0;
  if (text.substr(0, 3) == "\xEF\xBB\xBF") start = 3;
  while (start < text.size()) {
    std::size_t nl = text.find('\n', start);
    if (nl == std::string_view::npos) nl = text.size();
    tokens.emplace_back(text.substr(start, nl - start));
    start = nl + 1;
  }
  if (tokens.empty()) bad_input("{}: the vocabulary is empty", source);
  return tokens;
}

Vocab Vocab::from_text(std::string_view text, std::string_view source) { return Vocab(lines(text, source), source, true); }

Vocab Vocab::from_text(std::string_view text, std::string_view source, TokenIndex index) {
  return Vocab(lines(text, source), source, true, std::move(index));
}

Vocab Vocab::from_pairs(std::vector<std::pair<std::string, std::int64_t>> entries, std::string_view source) {
  if (entries.empty()) bad_input("{}: the vocabulary is empty", source);
  std::int64_t max_id = -1;
  for (const auto& [token, id] : entries) {
    if (id < 0 || id >= (std::int64_t{1} << 31) - 1)
      bad_input("{}: token '{}' has an invalid id {}", source, token, id);
    max_id = std::max(max_id, id);
  }
  if (static_cast<std::size_t>(max_id) >= entries.size() * 2 + 1024)
    bad_input("{}: vocabulary ids are sparse (largest id {} for {} tokens)", source, max_id, entries.size());
  std::vector<std::string> tokens(static_cast<std::size_t>(max_id) + 1);
  std::vector<bool> used(tokens.size(), false);
  for (auto& [token, id] : entries) {
    auto k = static_cast<std::size_t>(id);
    if (used[k]) bad_input("{}: id {} is given to both '{}' and '{}'", source, id, tokens[k], token);
    used[k] = true;
    tokens[k] = std::move(token);
  }
  return Vocab(std::move(tokens), source, false);
}

}  // namespace bertkit::tok
