#include "tokenizer/wordpiece.h"

#include "core/error.h"
#include "tokenizer/image_io.h"
#include "tokenizer/utf8.h"
#include "tokenizer/wordpiece_image.h"

#include <algorithm>

namespace bertkit::tok {

namespace {
bool is_continuation_byte(char c) { return (static_cast<unsigned char>(c) & 0xC0) == 0x80; }
}  // namespace

WordPiece::WordPiece(const Vocab& vocab, WordPieceOptions options, std::shared_ptr<const WordPieceTables> compiled)
    : vocab_(vocab), options_(std::move(options)) {
  auto unk = vocab_.find(options_.unk_token);
  if (!unk) bad_input("the unknown token '{}' is not in the vocabulary", options_.unk_token);
  unk_id_ = *unk;
  const std::string& prefix = options_.continuing_subword_prefix;
  if (compiled && compiled->continuing_subword_prefix == prefix && compiled->vocab_size == vocab_.size()) {
    // Shared, not copied: a copy would be megabytes of fresh pages at every start.
    initial_ = std::shared_ptr<const PrefixTrie>(compiled, &compiled->initial);
    continuations_ = std::shared_ptr<const PrefixTrie>(compiled, &compiled->continuations);
    return;
  }
  std::vector<std::pair<std::string_view, std::int32_t>> initial, continuations;
  for (std::int32_t id = 0; id < static_cast<std::int32_t>(vocab_.size()); ++id) {
    std::string_view t = vocab_.token(id);
    initial.emplace_back(t, id);
    if (!prefix.empty() && t.size() > prefix.size() && t.substr(0, prefix.size()) == prefix)
      continuations.emplace_back(t.substr(prefix.size()), id);
  }
  auto built_initial = std::make_shared<PrefixTrie>(), built_continuations = std::make_shared<PrefixTrie>();
  built_initial->build(initial);
  built_continuations->build(continuations);
  initial_ = std::move(built_initial);
  continuations_ = std::move(built_continuations);
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
    // The longest vocabulary entry that starts here; tokens are whole UTF-8 sequences, so a match
    // always ends on a character boundary.
    PrefixTrie::Match m = (start == 0 ? *initial_ : *continuations_).longest_prefix(word.substr(start));
    if (m.length == 0) {
      out.resize(first);
      out.push_back({unk_id_, 0, n});
      return;
    }
    out.push_back({m.id, start, start + m.length});
    start += m.length;
  }
}

void WordPiece::write(ImageWriter& out) const {
  initial_->write(out);
  continuations_->write(out);
}

}  // namespace bertkit::tok
