#include "tokenizer/unicode_forms.h"

#include "tokenizer/char_changes.h"
#include "tokenizer/utf8.h"

#include <utf8proc.h>

#include <algorithm>
#include <vector>

namespace bertkit::tok {

namespace {

struct CharChange {
  char32_t c;
  long change;
};

// The primary composite of starter `a` and `b`, or 0. utf8proc composes a buffer it takes as
// decomposed: given the two alone, it composes exactly the pair. A composite the Rust tables do not
// decompose (a newer one) is not made.
char32_t compose(char32_t a, char32_t b, const CharTable& table) {
  utf8proc_int32_t pair[2] = {static_cast<utf8proc_int32_t>(a), static_cast<utf8proc_int32_t>(b)};
  if (utf8proc_normalize_utf32(pair, 2, static_cast<utf8proc_option_t>(UTF8PROC_COMPOSE | UTF8PROC_STABLE)) != 1)
    return 0;
  const auto composite = static_cast<char32_t>(pair[0]);
  thread_local std::u32string pieces;
  pieces.clear();
  table.decompose(composite, pieces);
  return pieces.size() == 1 ? 0 : composite;
}

// The decomposed characters of a stretch of text, marks in canonical order, with their changes.
class Decomposed {
 public:
  Decomposed(bool compatibility, const CharTable& table) : compatibility_(compatibility), table_(table) {}

  void add(char32_t c) {
    pieces_.clear();
    if (compatibility_)
      table_.decompose_compat(c, pieces_);
    else
      table_.decompose(c, pieces_);
    for (std::size_t k = 0; k < pieces_.size(); ++k) push({pieces_[k], k == 0 ? 0 : 1});
  }

  // Composes the characters as NFC does, in place.
  void compose() {
    order_marks();
    std::size_t w = 0;
    long starter = -1;
    int last = -1;  // the highest combining class since the starter (-1: none)
    for (std::size_t r = 0; r < chars_.size(); ++r) {
      const CharChange x = chars_[r];
      const int ccc = table_.combining_class(x.c);
      if (starter >= 0 && last < ccc) {
        CharChange& s = chars_[static_cast<std::size_t>(starter)];
        if (const char32_t composite = tok::compose(s.c, x.c, table_)) {
          s = {composite, s.change + x.change - 1};
          continue;
        }
      }
      chars_[w] = x;
      if (ccc == 0) {
        starter = static_cast<long>(w);
        last = -1;
      } else {
        last = ccc;
      }
      ++w;
    }
    chars_.resize(w);
    marks_from_ = w;
  }

  void apply(ChangeCursor& cursor) {
    order_marks();
    for (const CharChange& x : chars_) cursor.apply(x.c, x.change);
    chars_.clear();
    marks_from_ = 0;
  }

 private:
  void push(CharChange x) {
    const bool starter = table_.combining_class(x.c) == 0;
    if (starter) order_marks();
    chars_.push_back(x);
    if (starter) marks_from_ = chars_.size();
  }
  // Canonical order: the marks since the last starter sorted by class, stably, with their changes (as
  // the Rust library sorts its buffer when a starter comes): O(n log n) for any run of marks.
  void order_marks() {
    std::stable_sort(chars_.begin() + static_cast<std::ptrdiff_t>(marks_from_), chars_.end(),
                     [&](const CharChange& a, const CharChange& b) {
                       return table_.combining_class(a.c) < table_.combining_class(b.c);
                     });
    marks_from_ = chars_.size();
  }

  bool compatibility_;
  const CharTable& table_;
  std::vector<CharChange> chars_;
  std::size_t marks_from_ = 0;  // where the marks after the last starter begin
  std::u32string pieces_;
};

}  // namespace

void UnicodeFormNormalizer::normalize(std::string_view original, std::uint32_t base, NormalizedText& out) const {
  ChangeCursor cursor(original, base, out);
  Decomposed stretch(compatibility(), table_);
  auto finish = [&] {
    if (composes()) stretch.compose();
    stretch.apply(cursor);
  };
  std::size_t i = 0;
  while (i < original.size()) {
    // ASCII followed by ASCII is its own normal form, and nothing before it composes with it.
    const std::size_t end = ascii_run_end(original, i);
    if (end > i) {
      finish();
      cursor.copy_ascii(end - i);
      i = end;
      continue;
    }
    stretch.add(next_code_point(original, i));
  }
  finish();
}

}  // namespace bertkit::tok
