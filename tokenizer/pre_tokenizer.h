#pragma once
// A pre-tokenizer cuts normalised text into the words the model sees. Called once per piece of text
// between added tokens, never per byte.
#include "tokenizer/normalized_text.h"

#include <cstdint>
#include <vector>

namespace bertkit::tok {

struct ByteSpan {
  std::uint32_t begin = 0, end = 0;
};

class PreTokenizer {
 public:
  virtual ~PreTokenizer() = default;
  // Appends the words of bytes [from, to) of `text` to `words` as byte spans, and returns the text they
  // are spans of: `text` itself for a pre-tokenizer that only splits (BertPreTokenizer), or `rewritten`
  // for one that changes the text (Metaspace's "▁" for spaces, byte-level's byte characters), which it
  // fills with every byte aligned to the original through `text`'s alignment, so offsets survive.
  virtual const NormalizedText& pre_tokenize(const NormalizedText& text, std::uint32_t from, std::uint32_t to,
                                             std::vector<ByteSpan>& words, NormalizedText& rewritten) const = 0;
  // Whether text cut just before an ASCII space that follows a visible ASCII character gives, piece by
  // piece, the words the whole text gives.
  virtual bool independent_across_spaces() const { return false; }
};

}  // namespace bertkit::tok
