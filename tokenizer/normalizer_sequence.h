#pragma once
// tokenizer.json's Sequence normalizer: each normaliser runs on the text of the one before, and every
// byte stays aligned to the original text through all of them.
#include "tokenizer/normalizer.h"

#include <memory>
#include <vector>

namespace bertkit::tok {

class SequenceNormalizer : public Normalizer {
 public:
  explicit SequenceNormalizer(std::vector<std::unique_ptr<Normalizer>> steps) : steps_(std::move(steps)) {}
  void normalize(std::string_view original, std::uint32_t base, NormalizedText& out) const override;
  bool independent_across_spaces() const override;
  // The first step's answer: independent_across_spaces() refuses a later step that looks at the text,
  // which sees another step's output.
  bool cuttable_after(std::string_view head) const override;
  bool checks_head() const override;

 private:
  std::vector<std::unique_ptr<Normalizer>> steps_;
};

}  // namespace bertkit::tok
