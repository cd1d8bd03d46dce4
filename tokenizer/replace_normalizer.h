#pragma once
// tokenizer.json's Replace normalizer: every match of a pattern becomes `content`. Patterns are a
// literal string, or a regex that is one character repeated ("{2,}", "+", "{n,m}": what SentencePiece
// conversions write, " {2,}"); any other regex is refused when read. As in Hugging Face, the matched
// characters are removed and the content's characters are aligned to the last of them.
#include "tokenizer/normalizer.h"

#include <cstdint>
#include <string>

namespace bertkit::tok {

struct ReplaceSpec {
  std::string pattern;  // a literal string, or the repeated character of a regex
  bool repeated = false;  // the pattern is one character, matched in runs of min_repeats..max_repeats
  std::uint32_t min_repeats = 1, max_repeats = UINT32_MAX;
  std::string content;
};

// Reads tokenizer.json's {"String": s} or {"Regex": r}; BadInput naming `where` for a regex bertkit does
// not run.
ReplaceSpec read_replace_pattern(bool regex, const std::string& pattern, std::string content, const std::string& where);

class ReplaceNormalizer : public Normalizer {
 public:
  explicit ReplaceNormalizer(ReplaceSpec spec) : spec_(std::move(spec)) {}
  void normalize(std::string_view original, std::uint32_t base, NormalizedText& out) const override;
  // When every match is all white space (" {2,}") or has none: no match can then span a cut before a
  // space that follows a visible character.
  bool independent_across_spaces() const override;

 private:
  // The end of the match at `at`, or `at` when none starts there.
  std::size_t match_end(std::string_view text, std::size_t at) const;
  ReplaceSpec spec_;
};

}  // namespace bertkit::tok
