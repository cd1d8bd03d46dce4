// Truncation on bert-base-uncased with texts whose words are one token each, so every window can be
// read off: longest_first / only_first / only_second, right and left, stride windows and their order
// for pairs (Hugging Face's Encoding::merge), and the slow tokenizer's one-token-at-a-time cut.
//
// Expected windows of pairs were computed with the reference library (npm tokenizers 0.23.2). For a
// single text that overflows past max_length, 0.23.2 stops tokenising at max_length tokens before
// truncating (huggingface/tokenizers#2091, a regression of 0.23.1), so its overflowing windows miss
// the end of the text; those expectations follow Encoding::truncate as documented (and as 0.22.2 and
// transformers' return_overflowing_tokens rely on): windows of max_length - 2 tokens, each starting
// max_length - 2 - stride after the previous one, until one reaches the end.
#include "tokenizer_test_helpers.h"

#include "core/error.h"

#include <doctest/doctest.h>

using bertkit::tok::Encoding;
using bertkit::tok::EncodeOptions;
using bertkit::tok::Side;
using bertkit::tok::TruncationStrategy;

namespace {

const std::string kTenWords = "one two three four five six seven eight nine ten";
const std::string kThree = "red green blue";
const std::string kSix = "red green blue black white pink";

EncodeOptions truncate_to(std::size_t max_length, TruncationStrategy strategy = TruncationStrategy::LongestFirst,
                    std::size_t stride = 0, Side side = Side::Right) {
  EncodeOptions o;
  o.truncation = bertkit::tok::TruncationParams{max_length, strategy, stride, side};
  return o;
}

// The main encoding and every overflowing window, one per line, as tokens.
std::string windows(const Encoding& e, const bertkit::tok::Tokenizer& tok) {
  std::string s = bktest::tokens_str(e, tok);
  for (const Encoding& o : e.overflowing) {
    s += '\n';
    s += bktest::tokens_str(o, tok);
  }
  return s;
}

std::string encode(const std::string& a, std::optional<std::string> b, const EncodeOptions& o,
                   bertkit::tok::UnicodeProfile profile = bertkit::tok::UnicodeProfile::Rust) {
  const auto& tok = bktest::shared_tokenizer("bert-base-uncased", profile);
  std::optional<std::string_view> bv;
  if (b) bv = *b;
  return windows(tok.encode(a, bv, o), tok);
}

}  // namespace

TEST_CASE("truncation: a single text, right, with and without stride") {
  CHECK(encode(kTenWords, std::nullopt, truncate_to(6)) ==
        "[CLS] one two three four [SEP]\n"
        "[CLS] five six seven eight [SEP]\n"
        "[CLS] nine ten [SEP]");
  CHECK(encode(kTenWords, std::nullopt, truncate_to(6, TruncationStrategy::LongestFirst, 2)) ==
        "[CLS] one two three four [SEP]\n"
        "[CLS] three four five six [SEP]\n"
        "[CLS] five six seven eight [SEP]\n"
        "[CLS] seven eight nine ten [SEP]");
  // Short enough: untouched, no windows.
  CHECK(encode(kThree, std::nullopt, truncate_to(5)) == "[CLS] red green blue [SEP]");
  // only_first on a single text is the same cut.
  CHECK(encode(kTenWords, std::nullopt, truncate_to(6, TruncationStrategy::OnlyFirst)) == encode(kTenWords, std::nullopt, truncate_to(6)));
}

TEST_CASE("truncation: a single text, left: windows from the end backwards") {
  const auto& tok = bktest::shared_tokenizer("bert-base-uncased");
  Encoding e = tok.encode(kTenWords, std::nullopt, truncate_to(6, TruncationStrategy::LongestFirst, 2, Side::Left));
  CHECK(windows(e, tok) ==
        "[CLS] seven eight nine ten [SEP]\n"
        "[CLS] five six seven eight [SEP]\n"
        "[CLS] three four five six [SEP]\n"
        "[CLS] one two three four [SEP]");
  // Offsets still point into the original text (reference: 28:33 34:39 40:44 45:48).
  CHECK(bktest::char_offsets_str(e, kTenWords) == "0:0 28:33 34:39 40:44 45:48 0:0");
}

TEST_CASE("truncation: pairs, longest_first, and the order of overflowing windows") {
  // A (10 tokens) and B (3): budget 7, B kept whole, A in windows of 4.
  CHECK(encode(kTenWords, kThree, truncate_to(10)) ==
        "[CLS] one two three four [SEP] red green blue [SEP]\n"
        "[CLS] five six seven eight [SEP] red green blue [SEP]\n"
        "[CLS] nine ten [SEP] red green blue [SEP]");
  CHECK(encode(kTenWords, kThree, truncate_to(10, TruncationStrategy::LongestFirst, 1)) ==
        "[CLS] one two three four [SEP] red green blue [SEP]\n"
        "[CLS] four five six seven [SEP] red green blue [SEP]\n"
        "[CLS] seven eight nine ten [SEP] red green blue [SEP]");
  // Both cut (A 10 -> 4, B 6 -> 3, the odd token to the longer text): every later window of A with
  // every window of B, then the first window of A with B's later windows.
  CHECK(encode(kTenWords, kSix, truncate_to(10)) ==
        "[CLS] one two three four [SEP] red green blue [SEP]\n"
        "[CLS] five six seven eight [SEP] red green blue [SEP]\n"
        "[CLS] five six seven eight [SEP] black white pink [SEP]\n"
        "[CLS] nine ten [SEP] red green blue [SEP]\n"
        "[CLS] nine ten [SEP] black white pink [SEP]\n"
        "[CLS] one two three four [SEP] black white pink [SEP]");
  CHECK(encode(kSix, kTenWords, truncate_to(10)) ==
        "[CLS] red green blue [SEP] one two three four [SEP]\n"
        "[CLS] black white pink [SEP] one two three four [SEP]\n"
        "[CLS] black white pink [SEP] five six seven eight [SEP]\n"
        "[CLS] black white pink [SEP] nine ten [SEP]\n"
        "[CLS] red green blue [SEP] five six seven eight [SEP]\n"
        "[CLS] red green blue [SEP] nine ten [SEP]");
  // Equally long: the odd token goes to B.
  CHECK(encode("one two three four", std::string("five six seven eight"), truncate_to(8)) ==
        "[CLS] one two [SEP] five six seven [SEP]\n"
        "[CLS] three four [SEP] five six seven [SEP]\n"
        "[CLS] three four [SEP] eight [SEP]\n"
        "[CLS] one two [SEP] eight [SEP]");
}

TEST_CASE("truncation: only_first and only_second, right and left") {
  CHECK(encode(kTenWords, kThree, truncate_to(10, TruncationStrategy::OnlyFirst, 1)) ==
        "[CLS] one two three four [SEP] red green blue [SEP]\n"
        "[CLS] four five six seven [SEP] red green blue [SEP]\n"
        "[CLS] seven eight nine ten [SEP] red green blue [SEP]");
  CHECK(encode(kThree, kTenWords, truncate_to(10, TruncationStrategy::OnlySecond, 2)) ==
        "[CLS] red green blue [SEP] one two three four [SEP]\n"
        "[CLS] red green blue [SEP] three four five six [SEP]\n"
        "[CLS] red green blue [SEP] five six seven eight [SEP]\n"
        "[CLS] red green blue [SEP] seven eight nine ten [SEP]");
  CHECK(encode(kThree, kTenWords, truncate_to(10, TruncationStrategy::OnlySecond, 2, Side::Left)) ==
        "[CLS] red green blue [SEP] seven eight nine ten [SEP]\n"
        "[CLS] red green blue [SEP] five six seven eight [SEP]\n"
        "[CLS] red green blue [SEP] three four five six [SEP]\n"
        "[CLS] red green blue [SEP] one two three four [SEP]");
  // The type ids follow the template in every window.
  const auto& tok = bktest::shared_tokenizer("bert-base-uncased");
  Encoding e = tok.encode(kThree, std::string_view(kTenWords), truncate_to(10, TruncationStrategy::OnlySecond, 2));
  REQUIRE(e.overflowing.size() == 3);
  CHECK(bktest::join(e.overflowing[2].type_ids) == "0 0 0 0 0 1 1 1 1 1");
}

TEST_CASE("truncation: errors the reference also refuses") {
  const auto& tok = bktest::shared_tokenizer("bert-base-uncased");
  // The text to cut is too short to make room (reference: "Sequence to truncate too short").
  CHECK_THROWS_AS(tok.encode(kTenWords, std::string_view(kThree), truncate_to(5, TruncationStrategy::OnlySecond)), bertkit::Error);
  // only_second needs a pair.
  CHECK_THROWS_AS(tok.encode(kTenWords, std::nullopt, truncate_to(5, TruncationStrategy::OnlySecond)), bertkit::Error);
  // The stride must leave room for progress.
  CHECK_THROWS_AS(tok.encode(kTenWords, std::nullopt, truncate_to(6, TruncationStrategy::LongestFirst, 4)), bertkit::Error);
  // No room beside the special tokens.
  CHECK_THROWS_AS(tok.encode(kTenWords, std::string_view(kThree), truncate_to(2)), bertkit::Error);
  CHECK(bertkit::tok::parse_truncation_strategy("only_second") == TruncationStrategy::OnlySecond);
  CHECK_THROWS_AS(bertkit::tok::parse_truncation_strategy("shortest"), bertkit::Error);
}

TEST_CASE("truncation: --compat python cuts one token at a time, from B on ties, without windows") {
  const auto python = bertkit::tok::UnicodeProfile::Python;
  // Budget 5 for 4 + 4 tokens: B, A, B lose one each, so A keeps the odd token (Rust gives it to B).
  CHECK(encode("one two three four", std::string("five six seven eight"), truncate_to(8), python) ==
        "[CLS] one two three [SEP] five six [SEP]");
  // The longer text is cut down to the other's length first.
  CHECK(encode(kTenWords, kThree, truncate_to(10), python) == "[CLS] one two three four [SEP] red green blue [SEP]");
  CHECK(encode(kTenWords, kSix, truncate_to(11), python) == "[CLS] one two three four [SEP] red green blue black [SEP]");
  CHECK(encode(kTenWords, std::nullopt, truncate_to(6, TruncationStrategy::LongestFirst, 0, Side::Left), python) ==
        "[CLS] seven eight nine ten [SEP]");
  CHECK(encode(kThree, kTenWords, truncate_to(10, TruncationStrategy::OnlySecond), python) ==
        "[CLS] red green blue [SEP] one two three four [SEP]");
}
