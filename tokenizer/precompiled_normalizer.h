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
  // When the rules keep the space and every visible ASCII character: a cut before a space after one is
  // then a cluster boundary (a Prepend character, which joins the space after it, is never ASCII), and
  // the characters either side stay what they were for the steps after this one.
  bool independent_across_spaces() const override { return independent_; }
  // Unless the text starts with characters the rules delete: nothing before them takes their
  // alignment, so they shift the alignment of everything after them (Hugging Face's transform).
  bool cuttable_after(std::string_view head) const override;
  bool checks_head() const override { return true; }

 private:
  // Normalises `original` into `out`; returns whether every original character was consumed in step
  // (none left behind by a deletion at the start).
  bool run(std::string_view original, std::uint32_t base, NormalizedText& out) const;

  std::shared_ptr<const PrecompiledCharsmap> map_;
  bool ascii_kept_[128];  // the rules leave this ASCII character alone
  bool independent_ = false;
};

}  // namespace bertkit::tok
