#pragma once
// Text after normalisation, with every byte aligned to the span of the original text it came from, so
// offsets survive lower-casing, accent stripping and deletions.
#include "tokenizer/utf8.h"

#include <cstdint>
#include <string>
#include <vector>

namespace bertkit::tok {

struct NormalizedText {
  std::string text;
  std::vector<std::uint32_t> begin;  // per byte of `text`: original byte offset where its char starts
  std::vector<std::uint32_t> end;    // ... and ends

  void clear() {
    text.clear();
    begin.clear();
    end.clear();
  }
  void push(char32_t c, std::uint32_t orig_begin, std::uint32_t orig_end) {
    append_utf8(text, c);
    begin.resize(text.size(), orig_begin);
    end.resize(text.size(), orig_end);
  }
  void push_ascii(char c, std::uint32_t orig_begin, std::uint32_t orig_end) {
    text.push_back(c);
    begin.push_back(orig_begin);
    end.push_back(orig_end);
  }
  // Appends original text unchanged (no normalisation), aligned one to one.
  void push_original(std::string_view original, std::uint32_t base);
};

}  // namespace bertkit::tok
