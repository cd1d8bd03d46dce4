#include "tokenizer/split_pre_tokenizers.h"

#include "core/error.h"
#include "tokenizer/bert_pretokenizer.h"

namespace bertkit::tok {

namespace {

class BertStep : public SplitStepPreTokenizer {
 public:
  explicit BertStep(UnicodeProfile profile) : bert_(profile) {}
  void split(std::string_view text, std::uint32_t from, std::uint32_t to, std::vector<ByteSpan>& words) const override {
    bert_.split(text, from, to, words);
  }
  bool cuts_at_spaces() const override { return true; }

 private:
  BertPreTokenizer bert_;
};

class WhitespaceSplitStep : public SplitStepPreTokenizer {
 public:
  void split(std::string_view text, std::uint32_t from, std::uint32_t to, std::vector<ByteSpan>& words) const override {
    split_chars(text, from, to, SplitBehavior::Removed, is_white_space, words);
  }
  bool cuts_at_spaces() const override { return true; }
};

// \w+|[^\w\s]+ with the words kept and the white space between them dropped: a word is a run of word
// characters or a run of others (neither word nor white space).
class WhitespaceStep : public SplitStepPreTokenizer {
 public:
  explicit WhitespaceStep(const CharTable& table) : table_(table) {}
  void split(std::string_view text, std::uint32_t from, std::uint32_t to, std::vector<ByteSpan>& words) const override {
    enum Kind { Space, Word, Other };
    Kind run = Space;
    std::uint32_t start = from;
    for (std::size_t i = from; i < to;) {
      const auto b = static_cast<std::uint32_t>(i);
      const char32_t c = next_code_point(text, i);
      const Kind kind = table_.is_regex_space(c) ? Space : table_.is_word(c) ? Word : Other;
      if (kind == run) continue;
      if (run != Space) words.push_back({start, b});
      run = kind;
      start = b;
    }
    if (run != Space) words.push_back({start, to});
  }
  bool cuts_at_spaces() const override { return true; }

 private:
  const CharTable& table_;
};

class PunctuationStep : public SplitStepPreTokenizer {
 public:
  PunctuationStep(const CharTable& table, SplitBehavior behavior) : table_(table), behavior_(behavior) {}
  void split(std::string_view text, std::uint32_t from, std::uint32_t to, std::vector<ByteSpan>& words) const override {
    split_chars(text, from, to, behavior_, [&](char32_t c) { return (table_.flags(c) & charflag::kPunct) != 0; }, words);
  }
  bool cuts_at_spaces() const override { return false; }  // "a b" is one word

 private:
  const CharTable& table_;
  SplitBehavior behavior_;
};

class DigitsStep : public SplitStepPreTokenizer {
 public:
  DigitsStep(const CharTable& table, bool individual) : table_(table), individual_(individual) {}
  void split(std::string_view text, std::uint32_t from, std::uint32_t to, std::vector<ByteSpan>& words) const override {
    split_chars(text, from, to, individual_ ? SplitBehavior::Isolated : SplitBehavior::Contiguous,
                [&](char32_t c) { return table_.is_numeric(c); }, words);
  }
  bool cuts_at_spaces() const override { return false; }

 private:
  const CharTable& table_;
  bool individual_;
};

struct MakeStep {
  UnicodeProfile profile;
  const CharTable& table;
  std::unique_ptr<SplitStepPreTokenizer> operator()(const BertPreTokenizerSpec&) const { return std::make_unique<BertStep>(profile); }
  std::unique_ptr<SplitStepPreTokenizer> operator()(const WhitespaceSplitSpec&) const { return std::make_unique<WhitespaceSplitStep>(); }
  std::unique_ptr<SplitStepPreTokenizer> operator()(const WhitespaceSpec&) const { return std::make_unique<WhitespaceStep>(table); }
  std::unique_ptr<SplitStepPreTokenizer> operator()(const PunctuationSpec& p) const {
    return std::make_unique<PunctuationStep>(table, p.behavior);
  }
  std::unique_ptr<SplitStepPreTokenizer> operator()(const DigitsSpec& d) const {
    return std::make_unique<DigitsStep>(table, d.individual_digits);
  }
};

}  // namespace

SplitSequencePreTokenizer::SplitSequencePreTokenizer(const SplitSequenceSpec& spec, UnicodeProfile profile) {
  if (spec.steps.empty()) bad_input("an empty pre-tokenizer Sequence");
  const MakeStep make{profile, CharTable::get(profile)};
  for (const SplitStep& step : spec.steps) steps_.push_back(std::visit(make, step));
}

const NormalizedText& SplitSequencePreTokenizer::pre_tokenize(const NormalizedText& text, std::uint32_t from,
                                                              std::uint32_t to, std::vector<ByteSpan>& words,
                                                              NormalizedText&) const {
  const std::size_t first = words.size();
  steps_.front()->split(text.text, from, to, words);
  thread_local std::vector<ByteSpan> before;
  for (std::size_t k = 1; k < steps_.size(); ++k) {
    before.assign(words.begin() + static_cast<std::ptrdiff_t>(first), words.end());
    words.resize(first);
    for (const ByteSpan& w : before) steps_[k]->split(text.text, w.begin, w.end, words);
  }
  return text;
}

}  // namespace bertkit::tok
