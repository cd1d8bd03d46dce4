#pragma once
// tokenizer.json's pre-tokenizers that only cut the text into words: WhitespaceSplit, Whitespace,
// Punctuation, Digits and BertPreTokenizer, alone or in a Sequence, where each cuts the words of the
// one before it. (Metaspace and ByteLevel rewrite the text and have classes of their own.)
#include "tokenizer/char_split.h"
#include "tokenizer/pre_tokenizer.h"
#include "tokenizer/unicode.h"

#include <memory>
#include <variant>
#include <vector>

namespace bertkit::tok {

struct BertPreTokenizerSpec {};
struct WhitespaceSplitSpec {};  // cut at white space, which is dropped
struct WhitespaceSpec {};       // the regex \w+|[^\w\s]+: runs of word characters, runs of others
struct PunctuationSpec {        // each punctuation character a delimiter
  SplitBehavior behavior = SplitBehavior::Isolated;
};
struct DigitsSpec {  // numeric characters split from the rest: each alone, or in runs
  bool individual_digits = false;
};
using SplitStep = std::variant<BertPreTokenizerSpec, WhitespaceSplitSpec, WhitespaceSpec, PunctuationSpec, DigitsSpec>;
struct SplitSequenceSpec {
  std::vector<SplitStep> steps;
};

class SplitStepPreTokenizer {
 public:
  virtual ~SplitStepPreTokenizer() = default;
  // Appends the words of text[from, to) to `words`.
  virtual void split(std::string_view text, std::uint32_t from, std::uint32_t to, std::vector<ByteSpan>& words) const = 0;
  // Whether a word never spans an ASCII space after a visible ASCII character (so that a cut there
  // changes nothing).
  virtual bool cuts_at_spaces() const = 0;
};

class SplitSequencePreTokenizer : public PreTokenizer {
 public:
  SplitSequencePreTokenizer(const SplitSequenceSpec& spec, UnicodeProfile profile);
  const NormalizedText& pre_tokenize(const NormalizedText& text, std::uint32_t from, std::uint32_t to,
                                     std::vector<ByteSpan>& words, NormalizedText&) const override;
  // The first step cuts at spaces; the later ones only cut inside its words.
  bool independent_across_spaces() const override { return steps_.front()->cuts_at_spaces(); }

 private:
  std::vector<std::unique_ptr<SplitStepPreTokenizer>> steps_;
};

}  // namespace bertkit::tok
