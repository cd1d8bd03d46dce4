#pragma once
// tokenizer.json's Strip normalizer: white space (Rust's char::is_whitespace, the Unicode White_Space
// property) removed from the left and/or right end of the text.
#include "tokenizer/normalizer.h"

namespace bertkit::tok {

struct StripSpec {
  bool left = true, right = true;
};

class StripNormalizer : public Normalizer {
 public:
  explicit StripNormalizer(StripSpec spec) : spec_(spec) {}
  void normalize(std::string_view original, std::uint32_t base, NormalizedText& out) const override;

 private:
  StripSpec spec_;
};

}  // namespace bertkit::tok
