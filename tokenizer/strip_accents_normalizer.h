#pragma once
// tokenizer.json's StripAccents normalizer: marks (Mn, Mc and Me, as the Rust tables have them; not
// only the nonspacing ones BertNormalizer's strip_accents drops) removed, and nothing else; an NFD or
// NFKD before it is what splits accents off their letters. As
// Hugging Face's filter aligns it: a removed mark goes with the character kept before it, which keeps
// its own span; marks before the first kept character are dropped.
#include "tokenizer/normalizer.h"
#include "tokenizer/unicode.h"

namespace bertkit::tok {

struct StripAccentsSpec {};

class StripAccentsNormalizer : public Normalizer {
 public:
  StripAccentsNormalizer() : table_(CharTable::get(UnicodeProfile::Rust)) {}
  void normalize(std::string_view original, std::uint32_t base, NormalizedText& out) const override;
  // Character by character: a cut anywhere changes nothing.
  bool independent_across_spaces() const override { return true; }

 private:
  const CharTable& table_;
};

}  // namespace bertkit::tok
