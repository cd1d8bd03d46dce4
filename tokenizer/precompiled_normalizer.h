#pragma once
// tokenizer.json's Precompiled normalizer (SentencePiece models: XLM-R, CamemBERT), as Hugging Face runs
// it: each extended grapheme cluster shorter than 6 bytes is looked up whole, else each of its
// characters; a replacement takes the place of what it matched. Alignments follow Hugging Face's
// quirks exactly: a replacement's characters each consume one original character, except that when it
// is longer than what it matched its last characters are inserted (aligned to the character consumed
// last), and when it is shorter its last character (or the one before it, when it is empty) also
// consumes the difference; what a replacement does not consume is consumed by the characters after it.
#include "tokenizer/normalizer.h"
#include "tokenizer/precompiled_charsmap.h"

#include <memory>

namespace bertkit::tok {

class PrecompiledNormalizer : public Normalizer {
 public:
  explicit PrecompiledNormalizer(std::shared_ptr<const PrecompiledCharsmap> map);
  void normalize(std::string_view original, std::uint32_t base, NormalizedText& out) const override;
  // Not independent across spaces: a Prepend character joins the space after it into one cluster, and
  // a replacement's unconsumed characters shift the alignment of everything after them.

 private:
  std::shared_ptr<const PrecompiledCharsmap> map_;
  bool ascii_kept_[128];  // the rules leave this ASCII character alone
};

}  // namespace bertkit::tok
