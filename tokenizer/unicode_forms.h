#pragma once
// tokenizer.json's NFC, NFD, NFKC and NFKD normalizers, aligned to the original text as Hugging Face's
// Rust library aligns them. Each character is decomposed (its first piece replaces it, the others are
// inserted after it), combining marks are put in canonical order, and for NFC and NFKC recomposed (a
// composite replaces its starter and removes the mark: its change is the two changes' sum less one).
// The alignment follows position, not character: a mark the canonical order moves takes the alignment
// of the character that was in its place. Unicode data: utf8proc's, less the decompositions newer than
// the Rust tables (CharTable).
#include "tokenizer/normalizer.h"
#include "tokenizer/unicode.h"

namespace bertkit::tok {

enum class UnicodeForm { Nfc, Nfd, Nfkc, Nfkd };

class UnicodeFormNormalizer : public Normalizer {
 public:
  explicit UnicodeFormNormalizer(UnicodeForm form)
      : form_(form), table_(CharTable::get(UnicodeProfile::Rust)) {}
  void normalize(std::string_view original, std::uint32_t base, NormalizedText& out) const override;
  // A space is a starter that composes with nothing, before or after it: a cut before one changes nothing.
  bool independent_across_spaces() const override { return true; }

 private:
  bool composes() const { return form_ == UnicodeForm::Nfc || form_ == UnicodeForm::Nfkc; }
  bool compatibility() const { return form_ == UnicodeForm::Nfkc || form_ == UnicodeForm::Nfkd; }

  UnicodeForm form_;
  const CharTable& table_;
};

}  // namespace bertkit::tok
