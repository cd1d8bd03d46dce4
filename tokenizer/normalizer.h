#pragma once
// A normaliser turns one piece of original text into NormalizedText; the tokenizer holds one of the
// two implementations: BertNormalizer (Hugging Face's fast tokenizer) or PythonBertNormalizer
// (transformers' slow BertTokenizer, --compat python).
#include "tokenizer/normalized_text.h"

#include <string_view>

namespace bertkit::tok {

class Normalizer {
 public:
  virtual ~Normalizer() = default;
  // Appends the normalised form of `original` (valid UTF-8); `base` is its byte offset in the text that
  // offsets refer to.
  virtual void normalize(std::string_view original, std::uint32_t base, NormalizedText& out) const = 0;
  // Whether text cut just before an ASCII space that follows a visible ASCII character normalises,
  // piece by piece, to what the whole text does: true when every character normalises on its own (a
  // space composes with nothing and starts a new combining sequence) or a rule sees only runs of white
  // space, which such a cut never splits. The tokenizer then reads very long texts a piece at a time.
  virtual bool independent_across_spaces() const { return false; }
  // For a normaliser independent across spaces: whether a text whose first piece is `head` may be cut
  // after it. Precompiled leaves characters it deletes at the very start unaligned, and every character
  // after them then takes the alignment of the one before it, to the end of the text: such a text is
  // read whole.
  virtual bool cuttable_after(std::string_view /*head*/) const { return true; }
  // Whether cuttable_after looks at the text (so that a Sequence knows to ask this step first).
  virtual bool checks_head() const { return false; }
};

}  // namespace bertkit::tok
