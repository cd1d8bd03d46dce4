#pragma once
// Hugging Face's NormalizedString::transform, which every normaliser that changes characters goes
// through: the new characters are listed with a change each, and their alignment to the original text
// follows from the changes alone. 0: the character replaces the next original one (and takes its
// span); -n: it replaces the next original one and removes the n after it; +1: it is inserted, with
// the span of the original character consumed last ((base, base) at the start). Original characters
// left over at the end are removed.
#include "tokenizer/normalized_text.h"
#include "tokenizer/utf8.h"

#include <cstdint>
#include <string_view>

namespace bertkit::tok {

class ChangeCursor {
 public:
  ChangeCursor(std::string_view original, std::uint32_t base, NormalizedText& out)
      : original_(original), base_(base), out_(out), last_begin_(base), last_end_(base) {}

  void apply(char32_t c, long change) {
    if (change > 0) {
      out_.push(c, last_begin_, last_end_);
      return;
    }
    consume();
    const std::uint32_t b = last_begin_, e = last_end_;
    for (long k = 0; k < -change; ++k) consume();
    out_.push(c, b, e);
  }
  // Removes the next original character (when there is one).
  void consume() {
    if (pos_ >= original_.size()) return;
    last_begin_ = base_ + static_cast<std::uint32_t>(pos_);
    next_code_point(original_, pos_);
    last_end_ = base_ + static_cast<std::uint32_t>(pos_);
  }
  // Copies original[pos(), pos() + n), ASCII, one for one (n changes of 0, in one step).
  void copy_ascii(std::size_t n) {
    char* dst = out_.append_one_to_one(n, base_ + static_cast<std::uint32_t>(pos_));
    for (std::size_t k = 0; k < n; ++k) dst[k] = original_[pos_ + k];
    pos_ += n;
    last_begin_ = base_ + static_cast<std::uint32_t>(pos_ - 1);
    last_end_ = last_begin_ + 1;
  }
  // The byte offset in `original` of the next character to consume.
  std::size_t pos() const { return pos_; }

 private:
  std::string_view original_;
  std::uint32_t base_;
  NormalizedText& out_;
  std::size_t pos_ = 0;
  std::uint32_t last_begin_, last_end_;  // the span of the character consumed last
};

}  // namespace bertkit::tok
