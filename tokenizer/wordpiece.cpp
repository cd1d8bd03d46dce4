#include "tokenizer/wordpiece.h"

#include "core/error.h"
#include "tokenizer/utf8.h"

#include <algorithm>

namespace bertkit::tok {

namespace {
bool is_continuation_byte(char c) { return (static_cast<unsigned char>(c) & 0xC0) == 0x80; }
}  // namespace

WordPiece::WordPiece(const Vocab& vocab, WordPieceOptions options) : vocab_(vocab), options_(std::move(options)) {
  auto unk = vocab_.find(options_.unk_token);
  if (!unk) bad_input("the unknown token '{}' is not in the vocabulary", options_.unk_token);
  unk_id_ = *unk;
  const std::string& prefix = options_.continuing_subword_prefix;
  std::vector<std::pair<std::string_view, std::int32_t>> entries;
  const auto& tokens = vocab_.tokens();
  for (std::size_t i = 0; i < tokens.size(); ++i) {
    std::string_view t = tokens[i];
    if (!prefix.empty() && t.size() > prefix.size() && t.substr(0, prefix.size()) == prefix)
      entries.emplace_back(t.substr(prefix.size()), static_cast<std::int32_t>(i));
  }
  continuations_.build(entries);
}

void WordPiece::tokenize(std::string_view word, std::vector<Piece>& out) const {
  const auto n = static_cast<std::uint32_t>(word.size());
  // Counting stops early: only "more than the limit" matters.
  std::size_t chars = 0;
  for (std::size_t i = 0; i < word.size() && chars <= options_.max_input_chars_per_word; ++i)
    chars += !is_continuation_byte(word[i]);
  if (chars > options_.max_input_chars_per_word) {
    out.push_back({unk_id_, 0, n});
    return;
  }
  const std::size_t first = out.size();
  std::uint32_t start = 0;
  while (start < n) {
    bool initial = start == 0;
    std::size_t longest = initial ? vocab_.longest_key() : continuations_.longest_key();
    std::uint32_t end = static_cast<std::uint32_t>(std::min<std::size_t>(n, start + longest));
    while (end < n && is_continuation_byte(word[end])) --end;
    std::optional<std::int32_t> id;
    while (end > start) {
      std::string_view candidate = word.substr(start, end - start);
      id = initial ? vocab_.find(candidate) : continuations_.find(candidate);
      if (id) break;
      --end;
      while (end > start && is_continuation_byte(word[end])) --end;
    }
    if (!id) {
      out.resize(first);
      out.push_back({unk_id_, 0, n});
      return;
    }
    out.push_back({*id, start, end});
    start = end;
  }
}

}  // namespace bertkit::tok
