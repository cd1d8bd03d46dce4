// Ids back to text. The fast path is what transformers' fast tokenizers do: the Rust WordPiece decoder
// ("##" joining, its clean-up applied to each token on its own), then transformers'
// clean_up_tokenization over the whole text when clean_up_tokenization_spaces is on. The Rust decoder's
// own outputs below were computed with the reference library (npm tokenizers 0.23.2, wordPieceDecoder);
// the --compat python path is BertTokenizer.convert_tokens_to_string + clean_up_tokenization.
#include "tokenizer_test_helpers.h"

#include "core/error.h"
#include "tokenizer/decoder.h"

#include <doctest/doctest.h>

using bertkit::tok::DecoderOptions;
using bertkit::tok::UnicodeProfile;

namespace {

std::string decode(std::vector<std::string> tokens, UnicodeProfile profile, bool rust_cleanup = true,
                   bool clean_up_spaces = true) {
  DecoderOptions o;
  o.cleanup = rust_cleanup;
  o.clean_up_tokenization_spaces = clean_up_spaces;
  return bertkit::tok::decode_wordpiece(tokens, o, profile);
}

}  // namespace

TEST_CASE("decoder: the Rust WordPiece decoder cleans each token on its own") {
  const auto rust = UnicodeProfile::Rust;
  // Reference (wordPieceDecoder("##", true)): per-token clean-up only.
  CHECK(decode({"hello", ",", "world", "!"}, rust, true, false) == "hello, world!");
  CHECK(decode({"do", "n't", "go"}, rust, true, false) == "don't go");
  CHECK(decode({"a", "'", "s"}, rust, true, false) == "a ' s");
  CHECK(decode({"it", "'", "s", "fine", "."}, rust, true, false) == "it ' s fine.");
  CHECK(decode({"un", "##aff", "##able", "?"}, rust, true, false) == "unaffable?");
  CHECK(decode({"##ing", "x"}, rust, true, false) == "##ing x");  // the first token keeps its prefix
  CHECK(decode({"a", "##", "b"}, rust, true, false) == "a b");
  // Reference (wordPieceDecoder("##", false)): no clean-up at all.
  CHECK(decode({"hello", ",", "world", "!"}, rust, false, false) == "hello , world !");
  CHECK(decode({"do", "n't", "go"}, rust, false, false) == "do n't go");
}

TEST_CASE("decoder: transformers' clean_up_tokenization then runs over the whole text") {
  const auto rust = UnicodeProfile::Rust;
  CHECK(decode({"a", "'", "s"}, rust) == "a's");
  CHECK(decode({"it", "'", "s", "fine", "."}, rust) == "it's fine.");
  CHECK(decode({"we", "'", "re", "here"}, rust) == "we're here");
  CHECK(decode({"i", "do", "not", "know"}, rust) == "i do not know");
  CHECK(decode({}, rust).empty());
}

TEST_CASE("decoder: --compat python joins with spaces, removes ' ##', strips, cleans up") {
  const auto python = UnicodeProfile::Python;
  CHECK(decode({"hello", ",", "world", "!"}, python) == "hello, world!");
  CHECK(decode({"a", "'", "s"}, python) == "a's");
  CHECK(decode({"un", "##aff", "##able", "?"}, python) == "unaffable?");
  CHECK(decode({"##ing", "x"}, python) == "##ing x");
  CHECK(decode({"do", "n't", "go"}, python) == "don't go");
  CHECK(decode({"do", "n't", "go"}, python, true, false) == "do n't go");
}

TEST_CASE("decoder: Tokenizer::decode maps ids and skips special tokens on request") {
  const auto& tok = bktest::shared_tokenizer("bert-base-uncased");
  std::vector<std::int32_t> ids = {101, 7592, 1010, 2088, 999, 102};
  CHECK(tok.decode(ids, false) == "[CLS] hello, world! [SEP]");
  CHECK(tok.decode(ids, true) == "hello, world!");
  // [UNK] and [MASK] are special too.
  CHECK(tok.decode(std::vector<std::int32_t>{101, 100, 103, 2088, 102}, true) == "world");
  CHECK_THROWS_AS(tok.decode(std::vector<std::int32_t>{101, 30522}, false), bertkit::Error);
  CHECK_THROWS_AS(tok.decode(std::vector<std::int32_t>{-1}, false), bertkit::Error);
}

TEST_CASE("decoder: encode then decode gives the text back on plain lower-case ASCII") {
  const auto& tok = bktest::shared_tokenizer("bert-base-uncased");
  for (std::string text : {"hello, world!", "the quick brown fox jumps over the lazy dog.",
                           "tokenization isn't unaffable, it's fine?"}) {
    auto e = tok.encode(text, std::nullopt, {});
    CHECK(tok.decode(e.ids, true) == text);
  }
}
