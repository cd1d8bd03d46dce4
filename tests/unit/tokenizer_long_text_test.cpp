// Long texts (issue 19, item 12): tokenized a piece at a time, cut just before a space, with exactly the
// tokens of the whole text; truncation without windows tokenizing only what it keeps; counting without
// keeping tokens. Each is compared with the plain path, which the golden corpora check against Hugging
// Face.
#include "tokenizer_test_helpers.h"

#include "core/error.h"
#include "tokenizer/utf8.h"

#include <doctest/doctest.h>
#include <nlohmann/json.hpp>

#include <filesystem>
#include <limits>

namespace tok = bertkit::tok;
using tok::EncodeOptions, tok::Encoding, tok::Tokenizer, tok::TruncationParams, tok::TruncationStrategy;
using tok::UnicodeProfile;

namespace {

// MODEL, or MODEL+nfkc (its tokenizer.json with the normalizer NFKC) or MODEL+tutorial (normalizer
// Sequence[NFD, StripAccents, Lowercase], pre-tokenizer Whitespace: the layout Hugging Face's tutorial
// trains).
std::unique_ptr<Tokenizer> with_pieces(const std::string& model, UnicodeProfile profile, std::size_t piece_bytes) {
  const std::size_t plus = model.find('+');
  auto files = tok::read_tokenizer_files(bktest::shared("vocab/" + model.substr(0, plus) + "/tokenizer.json"));
  if (plus != std::string::npos) {
    auto j = nlohmann::json::parse(*files.tokenizer_json);
    if (model.ends_with("+nfkc")) {
      j["normalizer"] = {{"type", "NFKC"}};
    } else {
      j["normalizer"] = {{"type", "Sequence"}, {"normalizers", {{{"type", "NFD"}}, {{"type", "StripAccents"}}, {{"type", "Lowercase"}}}}};
      j["pre_tokenizer"] = {{"type", "Whitespace"}};
    }
    files.tokenizer_json = j.dump();
  }
  auto spec = tok::build_tokenizer_spec(files);
  spec.profile = profile;
  spec.piece_bytes = piece_bytes;
  return std::make_unique<Tokenizer>(std::move(spec));
}

// Every field but the windows, which the callers compare themselves.
void check_same(const Encoding& got, const Encoding& want) {
  CHECK(got.ids == want.ids);
  CHECK(got.type_ids == want.type_ids);
  CHECK(got.offsets == want.offsets);
  CHECK(got.words == want.words);
  CHECK(got.sequence == want.sequence);
  CHECK(got.special_mask == want.special_mask);
  CHECK(got.attention_mask == want.attention_mask);
}

// The corpora's lines made valid UTF-8 (the tokenizer's input), several spaces and marks after spaces
// included.
std::vector<std::string> corpus_texts() {
  std::vector<std::string> texts;
  for (const auto& entry : std::filesystem::directory_iterator(bktest::shared("corpora"))) {
    if (entry.path().extension() != ".txt") continue;
    std::size_t n = 0;
    for (const auto& line : bktest::read_lines(entry.path())) {
      if (n++ % bktest::kSweepStride != 0) continue;
      std::string valid;
      tok::repair_utf8(line, valid);
      texts.push_back(std::move(valid));
    }
  }
  for (const char* s : {"a \xCC\x81 b", "  leading and trailing  ", "caf\xC3\xA9  \xCC\x88x", "\xE4\xB8\xAD \xE6\x96\x87 x",
                        "[MASK] [MASK]  [SEP]x", "un   believable\t \n tabs", " ", "",
                        // GPT-2's pattern: contractions and punctuation after a space, runs of spaces, a
                        // space after a non-ASCII character (no cut) and after a Prepend character.
                        "x 's y  'll z   've", "a , b ,, c  ?! d", "1 2  3   4", "\xC2\xA0 x\xC2\xA0  y",
                        "\xD8\x80 x \xD8\x80  y", "<mask> a <mask>  b",
                        // Characters SentencePiece's rules delete or change, at the start (where a deletion
                        // shifts every alignment after it), before a space and after one.
                        "\xE2\x80\x8B\xE2\x80\x8B hello world  again", "\x01\x02 x y z", "\xC2\xAD a b c",
                        "\xEF\xBB\xBF a b", "x\xE2\x80\x8B y \xE2\x80\x8Bz", "\xEF\xBC\xA1 \xEF\xBC\xA2  \xE3\x80\x80 c",
                        "\xE2\x80\x8B", "a\xCC\x81 b\xCC\x88  c"})
    texts.emplace_back(s);
  return texts;
}

// BERT's four, roberta-base's byte-level BPE (GPT-2's pattern around spaces),
// sentence-camembert-base's SentencePiece pipeline (Precompiled, Replace " {2,}", Metaspace, Unigram),
// and the Unicode normal forms (which compose across characters) and the Whitespace pre-tokenizer behind
// multilingual BERT's vocabulary.
const char* kLongTextModels[] = {"bert-base-uncased", "bert-base-cased", "bert-base-multilingual-cased", "bert-base-chinese",
                         "roberta-base", "sentence-camembert-base", "bert-base-multilingual-cased+nfkc",
                         "bert-base-multilingual-cased+tutorial"};

}  // namespace

TEST_CASE("long texts: tokenized in pieces cut before spaces, exactly the tokens of the whole text") {
  const auto texts = corpus_texts();
  REQUIRE(texts.size() > 10000 / bktest::kSweepStride);
  for (const std::string model : kLongTextModels) {
    // --compat python is BERT's (transformers' slow BertTokenizer) only.
    const bool bert = model.starts_with("bert-") && model.find('+') == std::string::npos;
    for (UnicodeProfile profile : {UnicodeProfile::Rust, UnicodeProfile::Python}) {
      if (profile == UnicodeProfile::Python && !bert) continue;
      CAPTURE(model);
      CAPTURE(static_cast<int>(profile));
      // Pieces of one byte cut at every space: the most cuts the rule allows.
      auto whole = with_pieces(model, profile, std::numeric_limits<std::size_t>::max());
      auto pieces = with_pieces(model, profile, 1);
      // One tokenizer after the other: each has its own word cache, which switching would refill.
      std::vector<Encoding> in_pieces;
      for (const auto& text : texts) in_pieces.push_back(pieces->encode(text, std::nullopt, {}));
      std::string all;
      for (std::size_t i = 0; i < texts.size(); ++i) {
        CAPTURE(texts[i]);
        check_same(in_pieces[i], whole->encode(texts[i], std::nullopt, {}));
        all += texts[i];
        all += ' ';
      }
      // One long text of every line, in pieces of the default size.
      auto defaults = with_pieces(model, profile, tok::TokenizerSpec{}.piece_bytes);
      const Encoding one = whole->encode(all, std::nullopt, {});
      check_same(defaults->encode(all, std::nullopt, {}), one);
      CHECK(defaults->count(all, std::nullopt, {}) == one.size());
    }
  }
}

TEST_CASE("long texts: an added token matched after normalisation that takes the spaces after it stops the pieces") {
  for (bool rstrip : {false, true}) {
    CAPTURE(rstrip);
    auto make = [&](std::size_t piece_bytes) {
      return bktest::tokenizer_from_vocab({"[PAD]", "[UNK]", "[CLS]", "[SEP]", "[MASK]", "hello", "world", "<x>"},
                                          [&](tok::TokenizerSpec& spec) {
                                            tok::AddedToken t;
                                            t.content = "<x>";
                                            t.id = 7;
                                            t.normalized = true;
                                            t.rstrip = rstrip;
                                            spec.added_tokens.push_back(t);
                                            spec.piece_bytes = piece_bytes;
                                          });
    };
    auto whole = make(std::numeric_limits<std::size_t>::max());
    auto pieces = make(1);
    for (const char* text : {"hello <x>  world", "<x> <x>   hello", "world<x> ", "  <x>"}) {
      CAPTURE(text);
      check_same(pieces->encode(text, std::nullopt, {}), whole->encode(text, std::nullopt, {}));
    }
  }
}

namespace {

std::string words(std::size_t n, const char* word) {
  std::string s;
  for (std::size_t i = 0; i < n; ++i) {
    if (i) s += ' ';
    s += word;
  }
  return s;
}

// encode() with and without windows gives the same first window, the same `truncated`, and the same
// error when it refuses.
void check_without_windows(const Tokenizer& tok, const std::string& a, const std::optional<std::string>& b,
                           const TruncationParams& t) {
  std::optional<std::string_view> bv;
  if (b) bv = *b;
  EncodeOptions with, without;
  with.truncation = without.truncation = t;
  without.keep_overflow = false;
  std::string want_error, got_error;
  Encoding want, got;
  try {
    want = tok.encode(a, bv, with);
  } catch (const bertkit::Error& e) {
    want_error = e.what();
  }
  try {
    got = tok.encode(a, bv, without);
  } catch (const bertkit::Error& e) {
    got_error = e.what();
  }
  CHECK(got_error == want_error);
  if (!want_error.empty()) return;
  check_same(got, want);
  CHECK(got.truncated == want.truncated);
  CHECK(got.overflowing.empty());
  if (tok.spec().profile == UnicodeProfile::Rust) CHECK(want.truncated == !want.overflowing.empty());
  CHECK(tok.count(a, bv, with) == want.size());
}

}  // namespace

TEST_CASE("truncation without windows: the first window, `truncated` and errors as with them, for every strategy") {
  // "unbelievable" is two tokens, so lengths step by one and by two; lengths up to twice the budget
  // and far beyond it, both texts past the budget (longer, shorter, tied), odd and even budgets.
  const std::vector<std::string> texts = {"",
                                          "hello",
                                          words(3, "hello"),
                                          words(4, "unbelievable"),
                                          words(7, "hello"),
                                          words(9, "hello"),
                                          words(10, "hello"),
                                          words(11, "hello"),
                                          words(5, "unbelievable") + " hello",
                                          words(40, "hello"),
                                          words(41, "hello"),
                                          words(400, "unbelievable hello")};
  for (UnicodeProfile profile : {UnicodeProfile::Rust, UnicodeProfile::Python}) {
    const Tokenizer& tok = bktest::shared_tokenizer("bert-base-uncased", profile);
    for (std::size_t max_length : {3, 4, 7, 8, 13, 16}) {
      for (TruncationStrategy strategy :
           {TruncationStrategy::LongestFirst, TruncationStrategy::OnlyFirst, TruncationStrategy::OnlySecond}) {
        TruncationParams t{max_length, strategy};
        CAPTURE(static_cast<int>(profile));
        CAPTURE(max_length);
        CAPTURE(static_cast<int>(strategy));
        for (const auto& a : texts) {
          CAPTURE(a.size());
          check_without_windows(tok, a, std::nullopt, t);
          for (const auto& b : texts) {
            CAPTURE(b.size());
            check_without_windows(tok, a, b, t);
          }
        }
      }
    }
  }
}

TEST_CASE("truncation on the left keeps its windows' path: the same first window without windows") {
  const Tokenizer& tok = bktest::shared_tokenizer("bert-base-uncased");
  check_without_windows(tok, words(30, "hello") + " world", std::nullopt, TruncationParams{8, TruncationStrategy::LongestFirst, 0, tok::Side::Left});
}

TEST_CASE("count: the size of the encoding, with and without special tokens and truncation") {
  const Tokenizer& tok = bktest::shared_tokenizer("bert-base-uncased");
  const std::string a = "Hello, world! [MASK] unbelievable " + words(50, "caf\xC3\xA9");
  const std::string b = "a second text";
  for (bool special : {true, false}) {
    for (std::optional<std::size_t> max_length : {std::optional<std::size_t>{}, std::optional<std::size_t>{16}}) {
      EncodeOptions o;
      o.add_special_tokens = special;
      if (max_length) o.truncation = TruncationParams{*max_length};
      CAPTURE(special);
      CHECK(tok.count(a, std::nullopt, o) == tok.encode(a, std::nullopt, o).size());
      CHECK(tok.count(a, b, o) == tok.encode(a, b, o).size());
    }
  }
}
