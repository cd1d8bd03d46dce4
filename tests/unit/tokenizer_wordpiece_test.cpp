// The WordPiece model on a made-up vocabulary: greedy longest match first, "##" continuations, the
// 100-character limit and whole-word [UNK]. The expected pieces follow from the algorithm by hand.
#include "tokenizer_test_helpers.h"

#include "core/error.h"
#include "tokenizer/wordpiece.h"

#include <doctest/doctest.h>

using bertkit::tok::Piece;
using bertkit::tok::Vocab;
using bertkit::tok::WordPiece;
using bertkit::tok::WordPieceOptions;

namespace {

const std::vector<std::string> kTokens = {"[PAD]", "[UNK]", "[CLS]", "[SEP]", "[MASK]", "un",   "una",  "##aff",
                                          "##able", "##ffa", "##ble", "a",     "##a",   "\xC3\xA9", "##\xC3\xA9", "x"};

const Vocab& vocab() {
  static const Vocab v = Vocab::from_text(bktest::vocab_text(kTokens), "test vocab");
  return v;
}

// "piece@begin:end ..." for one word.
std::string pieces(const WordPiece& wp, std::string_view word) {
  std::vector<Piece> out;
  wp.tokenize(word, out);
  std::string s;
  for (std::size_t i = 0; i < out.size(); ++i)
    s += fmt::format("{}{}@{}:{}", i ? " " : "", vocab().token(out[i].id), out[i].begin, out[i].end);
  return s;
}

std::string repeat(std::string_view s, int n) {
  std::string out;
  for (int i = 0; i < n; ++i) out += s;
  return out;
}

}  // namespace

TEST_CASE("wordpiece: greedy longest match first, continuations with ##") {
  WordPiece wp(vocab(), {});
  // Greedy: "una" beats "un" even though un ##aff ##able would also cover the word.
  CHECK(pieces(wp, "unaffable") == "una@0:3 ##ffa@3:6 ##ble@6:9");
  CHECK(pieces(wp, "un") == "un@0:2");
  CHECK(pieces(wp, "aaa") == "a@0:1 ##a@1:2 ##a@2:3");
  // A continuation is never matched at the start of a word, nor a word-initial piece inside it.
  CHECK(pieces(wp, "x") == "x@0:1");
  CHECK(pieces(wp, "ax") == "[UNK]@0:2");
}

TEST_CASE("wordpiece: a word that cannot be covered is one [UNK] over the whole word") {
  WordPiece wp(vocab(), {});
  CHECK(pieces(wp, "unaffablez") == "[UNK]@0:10");
  CHECK(pieces(wp, "zun") == "[UNK]@0:3");
  // Pieces never split a UTF-8 character.
  CHECK(pieces(wp, "\xC3\xA9\xC3\xA9") == "\xC3\xA9@0:2 ##\xC3\xA9@2:4");
  CHECK(pieces(wp, "\xC3\xA9\xC3\xA8") == "[UNK]@0:4");
}

TEST_CASE("wordpiece: more than max_input_chars_per_word characters is [UNK]") {
  WordPiece wp(vocab(), {});
  std::vector<Piece> out;
  wp.tokenize(repeat("a", 100), out);
  CHECK(out.size() == 100);
  out.clear();
  wp.tokenize(repeat("a", 101), out);
  REQUIRE(out.size() == 1);
  CHECK(out[0].id == wp.unk_id());
  CHECK(out[0].end == 101);
  // The limit counts characters, not bytes: 100 two-byte é are fine, 101 are not.
  out.clear();
  wp.tokenize(repeat("\xC3\xA9", 100), out);
  CHECK(out.size() == 100);
  out.clear();
  wp.tokenize(repeat("\xC3\xA9", 101), out);
  CHECK(out.size() == 1);
  CHECK(out[0].id == wp.unk_id());
  // The limit is an option.
  WordPieceOptions small;
  small.max_input_chars_per_word = 3;
  WordPiece wp3(vocab(), small);
  CHECK(pieces(wp3, "aaa") == "a@0:1 ##a@1:2 ##a@2:3");
  CHECK(pieces(wp3, "aaaa") == "[UNK]@0:4");
}

TEST_CASE("wordpiece: the continuation prefix and the unknown token are options") {
  WordPieceOptions o;
  o.continuing_subword_prefix = "@@";
  WordPiece wp(vocab(), o);
  CHECK(pieces(wp, "aa") == "[UNK]@0:2");  // "##a" is not a continuation any more
  o.unk_token = "[MISSING]";
  CHECK_THROWS_AS(WordPiece(vocab(), o), bertkit::Error);
}

TEST_CASE("wordpiece: inside the tokenizer, long words become [UNK] with the word's offsets") {
  auto tok = bktest::tokenizer_from_vocab(kTokens);
  std::string text = "un " + repeat("a", 101) + " unaffable";
  auto e = tok->encode(text, std::nullopt, {});
  CHECK(bktest::tokens_str(e, *tok) == "[CLS] un [UNK] una ##ffa ##ble [SEP]");
  CHECK(bktest::char_offsets_str(e, text) == "0:0 0:2 3:104 105:108 108:111 111:114 0:0");
}
