#pragma once
// Hugging Face's NormalizedString::split with a character pattern, which the splitting pre-tokenizers
// (WhitespaceSplit, Punctuation, Digits) are made of: each character the pattern picks is a delimiter
// of its own, and the behaviour says what becomes of it.
#include "tokenizer/pre_tokenizer.h"
#include "tokenizer/utf8.h"

#include <algorithm>
#include <cstdint>
#include <string_view>
#include <vector>

namespace bertkit::tok {

enum class SplitBehavior {
  Removed,             // dropped
  Isolated,            // a word of its own
  MergedWithPrevious,  // joined to the word before it (only the first of a run of delimiters)
  MergedWithNext,      // joined to the word after it (only the last of a run)
  Contiguous,          // a run of delimiters is one word
};

// Appends the words of text[from, to) to `words`; `is_delimiter(char32_t)` picks the delimiters.
template <typename IsDelimiter>
void split_chars(std::string_view text, std::uint32_t from, std::uint32_t to, SplitBehavior behavior,
                 IsDelimiter&& is_delimiter, std::vector<ByteSpan>& words) {
  // The pieces in order, each a delimiter or the run of characters between two, as HF lists them.
  struct Piece {
    ByteSpan span;
    bool delimiter;
  };
  thread_local std::vector<Piece> pieces;
  pieces.clear();
  std::uint32_t last = from;
  for (std::size_t i = from; i < to;) {
    const auto b = static_cast<std::uint32_t>(i);
    const char32_t c = next_code_point(text, i);
    if (!is_delimiter(c)) continue;
    if (last < b) pieces.push_back({{last, b}, false});
    pieces.push_back({{b, static_cast<std::uint32_t>(i)}, true});
    last = static_cast<std::uint32_t>(i);
  }
  if (last < to) pieces.push_back({{last, to}, false});

  const std::size_t first = words.size();
  // Hugging Face's folds: a piece that `joins` (given whether it and the piece met before it are
  // delimiters) extends the word before it, else it starts a word. MergedWithNext folds from the end.
  auto fold = [&](auto begin, auto end, auto joins, auto extend) {
    bool previous = false;
    for (auto p = begin; p != end; ++p) {
      if (joins(p->delimiter, previous) && words.size() > first)
        extend(words.back(), p->span);
      else
        words.push_back(p->span);
      previous = p->delimiter;
    }
  };
  auto to_end = [](ByteSpan& word, ByteSpan piece) { word.end = piece.end; };
  auto first_of_run = [](bool delimiter, bool previous) { return delimiter && !previous; };
  switch (behavior) {
    case SplitBehavior::Removed:
      for (const Piece& p : pieces)
        if (!p.delimiter) words.push_back(p.span);
      return;
    case SplitBehavior::Isolated:
      for (const Piece& p : pieces) words.push_back(p.span);
      return;
    case SplitBehavior::Contiguous:
      return fold(pieces.begin(), pieces.end(), [](bool delimiter, bool previous) { return delimiter == previous; }, to_end);
    case SplitBehavior::MergedWithPrevious:
      return fold(pieces.begin(), pieces.end(), first_of_run, to_end);
    case SplitBehavior::MergedWithNext:
      fold(pieces.rbegin(), pieces.rend(), first_of_run, [](ByteSpan& word, ByteSpan piece) { word.begin = piece.begin; });
      std::reverse(words.begin() + static_cast<std::ptrdiff_t>(first), words.end());
      return;
  }
}

}  // namespace bertkit::tok
