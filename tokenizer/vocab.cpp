#include "tokenizer/vocab.h"

#include "core/error.h"
#include "tokenizer/utf8.h"

#include <algorithm>
#include <limits>
#include <stdexcept>

namespace bertkit::tok {

Vocab::Vocab(std::string text, std::vector<std::uint32_t> starts, std::string_view source, bool from_lines,
             std::optional<TokenIndex> index)
    : text_(std::move(text)), starts_(std::move(starts)) {
  const std::size_t tokens = size();
  // transformers refuses such a file when decoding it; a partial UTF-8 sequence would also let
  // WordPiece match inside a character. The separators are ASCII, so no sequence spans two tokens and
  // one pass over all of them tells the same as one per token.
  if (std::size_t valid = valid_utf8_prefix(text_); valid != text_.size()) {
    const auto bad = static_cast<std::size_t>(std::upper_bound(starts_.begin(), starts_.end(), valid) - starts_.begin()) - 1;
    bad_input("{}:{}: token is not valid UTF-8", source, from_lines ? bad + 1 : bad);
  }
  if (index) {  // built from this vocabulary when it was compiled, duplicates refused then
    index_ = std::move(*index);
    return;
  }
  std::vector<std::pair<std::string_view, std::int32_t>> entries;
  entries.reserve(tokens);
  for (std::size_t i = 0; i < tokens; ++i)
    if (auto t = token(static_cast<std::int32_t>(i)); !t.empty()) entries.emplace_back(t, static_cast<std::int32_t>(i));
  if (auto dup = index_.build(entries)) {
    auto [first, second] = *dup;
    if (from_lines) bad_input("{}:{}: duplicate token '{}' (first on line {})", source, second + 1, token(second), first + 1);
    bad_input("{}: ids {} and {} are the same token '{}'", source, first, second, token(first));
  }
}

std::string_view Vocab::token(std::int32_t id) const {
  if (id < 0 || static_cast<std::size_t>(id) >= size()) throw std::out_of_range("token id outside the vocabulary");
  const auto i = static_cast<std::size_t>(id);
  return std::string_view(text_).substr(starts_[i], starts_[i + 1] - 1 - starts_[i]);
}

Vocab Vocab::lines(std::string_view text, std::string_view source, std::optional<TokenIndex> index) {
  if (text.size() >= std::numeric_limits<std::uint32_t>::max()) bad_input("{}: the vocabulary is too large", source);
  std::size_t start = text.substr(0, 3) == "\xEF\xBB\xBF" ? 3 : 0;
  std::vector<std::uint32_t> starts;
  starts.reserve(text.size() / 6);
  while (start < text.size()) {
    starts.push_back(static_cast<std::uint32_t>(start));
    std::size_t nl = text.find('\n', start);
    start = nl == std::string_view::npos ? text.size() + 1 : nl + 1;
  }
  if (starts.empty()) bad_input("{}: the vocabulary is empty", source);
  std::string owned(text);
  if (owned.back() != '\n') owned.push_back('\n');
  starts.push_back(static_cast<std::uint32_t>(owned.size()));
  return Vocab(std::move(owned), std::move(starts), source, true, std::move(index));
}

Vocab Vocab::from_text(std::string_view text, std::string_view source) { return lines(text, source, std::nullopt); }

Vocab Vocab::from_text(std::string_view text, std::string_view source, TokenIndex index) {
  return lines(text, source, std::move(index));
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
  std::vector<const std::string*> by_id(static_cast<std::size_t>(max_id) + 1, nullptr);
  std::size_t bytes = by_id.size();
  for (const auto& [token, id] : entries) {
    auto k = static_cast<std::size_t>(id);
    if (by_id[k]) bad_input("{}: id {} is given to both '{}' and '{}'", source, id, *by_id[k], token);
    by_id[k] = &token;
    bytes += token.size();
  }
  if (bytes >= std::numeric_limits<std::uint32_t>::max()) bad_input("{}: the vocabulary is too large", source);
  std::string text;
  text.reserve(bytes);
  std::vector<std::uint32_t> starts;
  starts.reserve(by_id.size() + 1);
  for (const std::string* token : by_id) {  // an id no token has is an empty token no text maps to
    starts.push_back(static_cast<std::uint32_t>(text.size()));
    if (token) text.append(*token);
    text.push_back('\n');
  }
  starts.push_back(static_cast<std::uint32_t>(text.size()));
  return Vocab(std::move(text), std::move(starts), source, false, std::nullopt);
}

}  // namespace bertkit::tok
