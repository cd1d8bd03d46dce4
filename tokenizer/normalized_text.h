#pragma once
// Text after normalisation, with every byte aligned to the span of the original text it came from, so
// offsets survive lower-casing, accent stripping and deletions.
#include "tokenizer/utf8.h"

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace bertkit::tok {

class NormalizedText {
 public:
  std::string text;

  // The alignment on its own. A loop that stores tokens between lookups keeps a copy in registers: read
  // through a reference, every store of an id (which may alias an offset) would make it load it again.
  struct Alignment {
    bool one_to_one;
    std::uint32_t base;
    const std::uint32_t* begin;
    const std::uint32_t* end;
    // The original span of byte i of the text: where its character starts and ends.
    std::uint32_t begin_of(std::size_t i) const { return one_to_one ? base + static_cast<std::uint32_t>(i) : begin[i]; }
    std::uint32_t end_of(std::size_t i) const { return one_to_one ? base + static_cast<std::uint32_t>(i) + 1 : end[i]; }
  };
  Alignment alignment() const { return {one_to_one_, base_, begin_.data(), end_.data()}; }
  std::uint32_t begin_of(std::size_t i) const { return alignment().begin_of(i); }
  std::uint32_t end_of(std::size_t i) const { return alignment().end_of(i); }

  void clear() {
    text.clear();
    begin_.clear();
    end_.clear();
    one_to_one_ = true;
  }
  // Flattened (every call inside inlined): the normalisers push a character at a time, and whether the
  // compiler inlines the string and vector growth otherwise depends on what else shares the unity batch.
  __attribute__((flatten)) void push(char32_t c, std::uint32_t orig_begin, std::uint32_t orig_end) {
    make_explicit();
    append_utf8(text, c);
    begin_.resize(text.size(), orig_begin);
    end_.resize(text.size(), orig_end);
  }
  __attribute__((flatten)) void push_ascii(char c, std::uint32_t orig_begin, std::uint32_t orig_end) {
    make_explicit();
    text.push_back(c);
    begin_.push_back(orig_begin);
    end_.push_back(orig_end);
  }
  // Appends `bytes`, every one aligned to the original span [orig_begin, orig_end).
  void append_aligned(std::string_view bytes, std::uint32_t orig_begin, std::uint32_t orig_end);
  // Appends bytes [from, to) of `other` with their alignment.
  void append_from(const NormalizedText& other, std::size_t from, std::size_t to);
  // Aligns bytes [from, size) to the original span [orig_begin, orig_end).
  void realign(std::size_t from, std::uint32_t orig_begin, std::uint32_t orig_end);

  // Appends n bytes that replace original bytes [orig_begin, orig_begin + n) one for one (ASCII changed in
  // place) and returns where the caller writes them. Text made only of such runs, one after another in
  // the original, stores no alignment at all: the common case of ASCII text costs one byte a byte.
  char* append_one_to_one(std::size_t n, std::uint32_t orig_begin);
  // For text normalised from `earlier.text` (offset 0 being its first byte): aligns every byte to the
  // original span `earlier` aligns its source to, as when normalisers run one after another.
  void map_through(const NormalizedText& earlier);
  // Drops the bytes from `size` on (undoes the end of an append).
  void truncate(std::size_t size);

 private:
  // Switches to per-byte alignment arrays (once; pushes that change lengths need them).
  void make_explicit() {
    if (one_to_one_) materialize();
  }
  void materialize();

  // One to one: byte i came from original byte base_ + i, and begin_/end_ are unused.
  bool one_to_one_ = true;
  std::uint32_t base_ = 0;
  std::vector<std::uint32_t> begin_;  // otherwise, per byte: original offset where its char starts
  std::vector<std::uint32_t> end_;    // ... and ends
};

}  // namespace bertkit::tok
