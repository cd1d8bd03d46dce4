#pragma once
// BertNormalizer as Hugging Face defines it: clean_text, handle_chinese_chars, strip_accents (NFD, then
// drop nonspacing marks), lowercase, applied in that order.
#include "tokenizer/normalizer.h"
#include "tokenizer/unicode.h"

#include <optional>
#include <string_view>

namespace bertkit::tok {

struct NormalizerOptions {
  bool clean_text = true;
  bool handle_chinese_chars = true;
  std::optional<bool> strip_accents;  // unset: follows lowercase
  bool lowercase = true;

  bool strips_accents() const { return strip_accents.value_or(lowercase); }
};

class BertNormalizer : public Normalizer {
 public:
  BertNormalizer(NormalizerOptions options, UnicodeProfile profile);

  // Appends the normalised form of `original` (valid UTF-8) to `out`; `base` is the byte offset of
  // `original` in the text that offsets refer to.
  void normalize(std::string_view original, std::uint32_t base, NormalizedText& out) const override;
  bool independent_across_spaces() const override { return true; }
  const NormalizerOptions& options() const { return options_; }

 private:
  void push_transformed(char32_t c, std::uint32_t b, std::uint32_t e, NormalizedText& out) const;

  NormalizerOptions options_;
  bool strip_;
  const CharTable& table_;
  std::uint8_t transform_mask_;  // flags that send a char down the slow path
  // What each ASCII byte becomes (kDropped: deleted), so ASCII runs take a table-driven loop.
  static constexpr unsigned char kDropped = 0xFF;
  unsigned char ascii_map_[128];
  // When the map keeps every printable ASCII byte (0x20-0x7E) except A-Z, which it moves by
  // upper_delta_ (32 when lower-casing, else 0), runs of printable bytes take a 16-byte path.
  bool printable_simple_ = false;
  unsigned char upper_delta_ = 0;
};

}  // namespace bertkit::tok
