#pragma once
// transformers' slow BertTokenizer (4.33, Python 3.11), for --compat python: every character lower-cased
// on its own before anything else, clean_text deleting every category C* code point (unassigned ones
// too), Chinese-character spacing, NFC, then NFD + mark stripping. Python's tables are Unicode 14.0.
#include "tokenizer/bert_normalizer.h"

namespace bertkit::tok {

class PythonBertNormalizer : public Normalizer {
 public:
  explicit PythonBertNormalizer(NormalizerOptions options);
  void normalize(std::string_view original, std::uint32_t base, NormalizedText& out) const override;
  // NFC composes nothing with a space, and a space is a starter that ends every combining sequence.
  bool independent_across_spaces() const override { return true; }

 private:
  void compose(const NormalizedText& in, NormalizedText& out) const;

  NormalizerOptions options_;
  const CharTable& table_;
  BertNormalizer strip_;  // only strips accents; run after NFC
};

}  // namespace bertkit::tok
