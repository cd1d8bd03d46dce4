// Added tokens on bert-base-uncased's vocabulary: kept whole, matched leftmost-longest in the raw text
// (normalized: false) or in the normalised text (normalized: true), with lstrip / rstrip / single_word
// as Hugging Face's AddedVocabulary::find_matches defines them. Every expected id and offset below was
// computed with the reference library (npm tokenizers 0.23.2, Tokenizer.addAddedTokens) on these
// made-up inputs.
#include "tokenizer_test_helpers.h"

#include <doctest/doctest.h>

#include <algorithm>

using bertkit::tok::AddedToken;
using bertkit::tok::Tokenizer;

namespace {

struct Flags {
  bool special = true, single_word = false, lstrip = false, rstrip = false, normalized = false;
};

// bert-base-uncased's tokenizer.json plus extra added tokens (each must be in the vocabulary).
std::unique_ptr<Tokenizer> with_added(std::vector<std::pair<std::string, Flags>> extra) {
  auto spec = bertkit::tok::build_tokenizer_spec(
      bertkit::tok::read_tokenizer_files(bktest::shared("vocab/bert-base-uncased/tokenizer.json")));
  for (auto& [content, f] : extra) {
    auto id = spec.vocab->find(content);
    REQUIRE(id);
    spec.added_tokens.push_back(AddedToken{content, *id, f.special, f.single_word, f.lstrip, f.rstrip, f.normalized});
  }
  return std::make_unique<Tokenizer>(std::move(spec));
}

struct Result {
  std::string ids, offsets;
};

Result encode(const Tokenizer& tok, const std::string& text) {
  auto e = tok.encode(text, std::nullopt, {});
  return {bktest::join(e.ids), bktest::char_offsets_str(e, text)};
}

constexpr int kUnused5 = 6;  // id of [unused5] in bert-base-uncased

bool has_unused5(const Tokenizer& tok, const std::string& text) {
  auto e = tok.encode(text, std::nullopt, {});
  return std::find(e.ids.begin(), e.ids.end(), kUnused5) != e.ids.end();
}

}  // namespace

TEST_CASE("added tokens: special tokens of tokenizer.json are kept whole, case-sensitively") {
  const auto& tok = bktest::shared_tokenizer("bert-base-uncased");
  auto r = encode(tok, "[MASK]ed [MASK] [mask]");
  CHECK(r.ids == "101 103 3968 103 1031 7308 1033 102");
  CHECK(r.offsets == "0:0 0:6 6:8 9:15 16:17 17:21 21:22 0:0");
  r = encode(tok, "[CLS] hi [SEP]");
  CHECK(r.ids == "101 101 7632 102 102");
  CHECK(r.offsets == "0:0 0:5 6:8 9:14 0:0");
}

TEST_CASE("added tokens: normalized false matches the raw text, normalized true the normalised text") {
  auto raw = with_added({{"[unused5]", {.normalized = false}}});
  auto r = encode(*raw, "A [UNUSED5] [unused5]");
  CHECK(r.ids == "101 1037 1031 15171 2629 1033 6 102");
  CHECK(r.offsets == "0:0 0:1 2:3 3:9 9:10 10:11 12:21 0:0");

  auto normalized = with_added({{"[unused5]", {.normalized = true}}});
  r = encode(*normalized, "A [UNUSED5] [unused5]");
  CHECK(r.ids == "101 1037 6 6 102");
  CHECK(r.offsets == "0:0 0:1 2:11 12:21 0:0");

  // A normalised, non-special token splits a word it is part of.
  auto world = with_added({{"world", {.special = false, .normalized = true}}});
  r = encode(*world, "Hello WORLD helloworld");
  CHECK(r.ids == "101 7592 2088 7592 2088 102");
  CHECK(r.offsets == "0:0 0:5 6:11 12:17 17:22 0:0");
}

TEST_CASE("added tokens: leftmost-longest matching") {
  auto tok = with_added({{"news", {.special = false}}, {"newspaper", {.special = false}}});
  auto r = encode(*tok, "the newspapers news");
  CHECK(r.ids == "101 1996 3780 1055 2739 102");
  CHECK(r.offsets == "0:0 0:3 4:13 13:14 15:19 0:0");
  // The earlier match wins even when a later one overlaps it.
  tok = with_added({{"sea", {.special = false}}, {"eat", {.special = false}}});
  r = encode(*tok, "seat eat");
  CHECK(r.ids == "101 2712 1056 4521 102");
  CHECK(r.offsets == "0:0 0:3 3:4 5:8 0:0");
}

TEST_CASE("added tokens: lstrip and rstrip take the whitespace into the token") {
  auto l = with_added({{"[unused5]", {.lstrip = true}}});
  auto r = encode(*l, "a  [unused5]  b");
  CHECK(r.ids == "101 1037 6 1038 102");
  CHECK(r.offsets == "0:0 0:1 1:12 14:15 0:0");

  auto rs = with_added({{"[unused5]", {.rstrip = true}}});
  r = encode(*rs, "a  [unused5]  b");
  CHECK(r.ids == "101 1037 6 1038 102");
  CHECK(r.offsets == "0:0 0:1 3:14 14:15 0:0");

  // Whitespace already taken by the previous token's rstrip is not taken again; U+2000 is whitespace.
  auto both = with_added({{"[unused5]", {.lstrip = true, .rstrip = true}}});
  r = encode(*both, "a\t[unused5]\t[unused5]\xE2\x80\x80" "b");
  CHECK(r.ids == "101 1037 6 6 1038 102");
  CHECK(r.offsets == "0:0 0:1 1:12 12:22 22:23 0:0");

  // In the normalised text too.
  auto ln = with_added({{"[unused5]", {.lstrip = true, .normalized = true}}});
  r = encode(*ln, "abc  [unused5]");
  CHECK(r.ids == "101 5925 6 102");
  CHECK(r.offsets == "0:0 0:3 3:14 0:0");
}

TEST_CASE("added tokens: single_word only matches a token not touching word characters") {
  auto tok = with_added({{"[unused5]", {.single_word = true}}});
  auto r = encode(*tok, "x[unused5] [unused5]");
  CHECK(r.ids == "101 1060 1031 15171 2629 1033 6 102");
  CHECK(r.offsets == "0:0 0:1 1:2 2:8 8:9 9:10 11:20 0:0");
  // With rstrip the check still looks at the character right after the token.
  auto rs = with_added({{"[unused5]", {.single_word = true, .rstrip = true}}});
  r = encode(*rs, "a [unused5]x [unused5]");
  CHECK(r.ids == "101 1037 1031 15171 2629 1033 1060 6 102");
  CHECK(r.offsets == "0:0 0:1 2:3 3:9 9:10 10:11 11:12 13:22 0:0");
}

TEST_CASE("added tokens: single_word uses Rust regex's \\w (letters, marks, digits, connectors, joiners)") {
  auto tok = with_added({{"[unused5]", {.single_word = true}}});
  // \w: combining marks, Other_Alphabetic symbols (Ⓐ), every connector punctuation (‿), ZWJ, Nl (Ⅻ).
  CHECK_FALSE(has_unused5(*tok, "e\xCC\x81[unused5] b"));
  CHECK_FALSE(has_unused5(*tok, "\xE2\x92\xB6[unused5] b"));
  CHECK_FALSE(has_unused5(*tok, "\xE2\x80\xBF[unused5] b"));
  CHECK_FALSE(has_unused5(*tok, "\xE2\x80\x8D[unused5] b"));
  CHECK_FALSE(has_unused5(*tok, "\xE2\x85\xAB[unused5] b"));
  CHECK_FALSE(has_unused5(*tok, "[unused5]_ b"));
  CHECK_FALSE(has_unused5(*tok, "[unused5]\xD9\xA3 b"));  // Arabic-Indic digit three
  // Not \w: other numbers (², ½) and punctuation.
  CHECK(has_unused5(*tok, "\xC2\xB2[unused5] b"));
  CHECK(has_unused5(*tok, "\xC2\xBD[unused5] b"));
  CHECK(has_unused5(*tok, "-[unused5], b"));
  auto r = encode(*tok, "\xC2\xB2[unused5] b");
  CHECK(r.offsets == "0:0 0:1 1:10 11:12 0:0");
}
