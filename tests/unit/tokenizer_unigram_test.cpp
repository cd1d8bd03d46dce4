// The SentencePiece pieces of the pipeline on their own: the Precompiled charsmap and normalizer,
// Replace and Strip, the Metaspace pre-tokenizer and decoder, and the Unigram model's Viterbi with its
// unknown-piece rule. The whole pipeline against Hugging Face is tests/golden/tokenizer_corpora_test.cpp.
#include "expect_bad_input.h"
#include "tokenizer_test_helpers.h"

#include "tokenizer/metaspace.h"
#include "tokenizer/precompiled_charsmap.h"
#include "tokenizer/precompiled_normalizer.h"
#include "tokenizer/replace_normalizer.h"
#include "tokenizer/strip_normalizer.h"
#include "tokenizer/tokenizer_json.h"
#include "tokenizer/unigram.h"

#include <doctest/doctest.h>
#include <nlohmann/json.hpp>

#include <cstring>
#include <fstream>

using namespace bertkit::tok;

namespace {

std::shared_ptr<const PrecompiledCharsmap> camembert_charsmap() {
  static std::shared_ptr<const PrecompiledCharsmap> map = [] {
    std::ifstream in(bktest::shared("vocab/sentence-camembert-base/tokenizer.json"));
    nlohmann::json j = nlohmann::json::parse(in);
    const std::string b64 = j["normalizer"]["normalizers"][0]["precompiled_charsmap"].get<std::string>();
    return std::make_shared<const PrecompiledCharsmap>(PrecompiledCharsmap::from_base64(b64, "test"));
  }();
  return map;
}

// "text|b:e b:e ..." : the normalised text and each byte's original span, runs of equal spans merged.
std::string normalized_str(const Normalizer& n, std::string_view text, std::uint32_t base = 0) {
  NormalizedText out;
  n.normalize(text, base, out);
  std::string s = out.text + "|";
  for (std::size_t i = 0; i < out.text.size(); ++i) {
    if (i && out.begin_of(i) == out.begin_of(i - 1) && out.end_of(i) == out.end_of(i - 1) &&
        (out.begin_of(i) + 1 != out.end_of(i)))
      continue;
    s += fmt::format("{}{}:{}", i ? " " : "", out.begin_of(i), out.end_of(i));
  }
  return s;
}

std::vector<std::string> metaspace_words(const MetaspaceSpec& spec, std::string_view text) {
  NormalizedText in, rewritten;
  std::memcpy(in.append_one_to_one(text.size(), 0), text.data(), text.size());
  std::vector<ByteSpan> words;
  const MetaspacePreTokenizer pre_tokenizer(spec);
  const NormalizedText& r = pre_tokenizer.pre_tokenize(in, 0, static_cast<std::uint32_t>(text.size()), words, rewritten);
  std::vector<std::string> out;
  for (const ByteSpan& w : words) out.push_back(r.text.substr(w.begin, w.end - w.begin));
  return out;
}

struct TinyUnigram {
  Vocab vocab;
  Unigram model;
  TinyUnigram(std::vector<std::pair<std::string, double>> pieces, std::int32_t unk, bool byte_fallback = false)
      : vocab(make_vocab(pieces)), model(vocab, make_spec(pieces, unk, byte_fallback)) {}
  static Vocab make_vocab(const std::vector<std::pair<std::string, double>>& pieces) {
    std::vector<std::pair<std::string, std::int64_t>> entries;
    for (const auto& [p, s] : pieces) entries.emplace_back(p, static_cast<std::int64_t>(entries.size()));
    return Vocab::from_pairs(entries, "test");
  }
  static UnigramSpec make_spec(const std::vector<std::pair<std::string, double>>& pieces, std::int32_t unk, bool bf) {
    auto scores = std::make_shared<std::vector<double>>();
    for (const auto& [p, s] : pieces) scores->push_back(s);
    return {unk, bf, scores, nullptr};
  }
  std::string split(std::string_view word) const {
    std::vector<Piece> pieces;
    model.tokenize(word, pieces);
    std::string s;
    for (const Piece& p : pieces) s += fmt::format("{}{}@{}:{}", s.empty() ? "" : " ", vocab.token(p.id), p.begin, p.end);
    return s;
  }
};

}  // namespace

TEST_CASE("precompiled charsmap: bad bytes are refused in one line, damaged tries only fail to match") {
  bktest::expect_bad_input([] { PrecompiledCharsmap::from_base64("AB$C", "f.json"); }, "f.json", "not base64");
  bktest::expect_bad_input([] { PrecompiledCharsmap::from_bytes("ab", "f.json"); }, "f.json", "too short");
  bktest::expect_bad_input([] { PrecompiledCharsmap::from_bytes(std::string("\x10\0\0\0abcd", 8), "f.json"); }, "f.json", "does not fit");
  // A trie of one unit that leads nowhere.
  const PrecompiledCharsmap empty = PrecompiledCharsmap::from_bytes(std::string("\x04\0\0\0\0\0\0\0", 8), "f.json");
  CHECK_FALSE(empty.transform("a"));
}

TEST_CASE("precompiled charsmap: SentencePiece's nmt_nfkc rules from a real tokenizer.json") {
  auto map = camembert_charsmap();
  CHECK_FALSE(map->transform("a"));
  CHECK(map->transform("\xEF\xBC\xA1") == std::optional<std::string_view>("A"));  // full-width A
  CHECK(map->transform("\xEF\xAC\x81") == std::optional<std::string_view>("fi"));  // the ligature fi
  // The shortest key that starts the chunk decides, and stands for all of it.
  CHECK(map->transform("\xEF\xBC\xA1z") == std::optional<std::string_view>("A"));
}

TEST_CASE("precompiled normalizer: replacements and Hugging Face's alignment of them") {
  PrecompiledNormalizer n(camembert_charsmap());
  CHECK(normalized_str(n, "ab") == "ab|0:1 1:2");
  CHECK(normalized_str(n, "ab", 10) == "ab|10:11 11:12");
  // One character to one: the replacement takes its span.
  CHECK(normalized_str(n, "x\xEF\xBC\xA1y") == "xAy|0:1 1:4 4:5");
  // One to two: f replaces the ligature, i is inserted, aligned to it.
  CHECK(normalized_str(n, "x\xEF\xAC\x81y") == "xfiy|0:1 1:4 4:5");
  // A deletion (ESC) extends the change before it: the space then stands for both, and what follows
  // keeps its own span.
  CHECK(normalized_str(n, "a \x1b[") == "a [|0:1 1:2 3:4");
}

TEST_CASE("replace normalizer: runs of a character, literal strings, and regexes it refuses") {
  ReplaceNormalizer runs(read_replace_pattern(true, " {2,}", " ", "f.json"));
  CHECK(normalized_str(runs, "a   b c") == "a b c|0:1 3:4 4:5 5:6 6:7");
  ReplaceNormalizer literal(read_replace_pattern(false, "ab", "X", "f.json"));
  CHECK(normalized_str(literal, "cabab\xC3\xA9") == "cXX\xC3\xA9|0:1 2:3 4:5 5:7");
  bktest::expect_bad_input([] { read_replace_pattern(true, "a|b", "", "f.json"); }, "f.json", "is not supported");
  bktest::expect_bad_input([] { read_replace_pattern(true, "\\s+", "", "f.json"); }, "f.json", "is not supported");
}

TEST_CASE("strip normalizer: white space at either end") {
  CHECK(normalized_str(StripNormalizer({true, true}), " \xE3\x80\x80" "a b \n") == "a b|4:5 5:6 6:7");
  CHECK(normalized_str(StripNormalizer({false, true}), " a ") == " a|0:1 1:2");
}

TEST_CASE("metaspace pre-tokenizer: spaces become the replacement, words start at it") {
  MetaspaceSpec always;
  CHECK(metaspace_words(always, "Hey  friend!") == std::vector<std::string>{"\u2581Hey", "\u2581", "\u2581friend!"});
  CHECK(metaspace_words(always, " a") == std::vector<std::string>{"\u2581a"});
  MetaspaceSpec never;
  never.prepend_scheme = PrependScheme::Never;
  CHECK(metaspace_words(never, "a b") == std::vector<std::string>{"a", "\u2581b"});
  MetaspaceSpec behind_whitespace_split;
  behind_whitespace_split.whitespace_split = true;
  CHECK(metaspace_words(behind_whitespace_split, " Hey\t\u2581you  ok\n") ==
        std::vector<std::string>{"\u2581Hey", "\u2581you", "\u2581ok"});
  MetaspaceSpec whole;
  whole.split = false;
  CHECK(metaspace_words(whole, "a b") == std::vector<std::string>{"\u2581a\u2581b"});
}

TEST_CASE("metaspace decoder: replacement characters are spaces, the first token's dropped") {
  MetaspaceDecoder d(MetaspaceDecoderSpec{});
  CHECK(d.join({"\u2581Hey", "\u2581friend", "!"}) == "Hey friend!");
  CHECK(d.decode({"<s>", "\u2581Hey", "\u2581!"}) == "<s> Hey!");
  MetaspaceDecoderSpec never;
  never.metaspace.prepend_scheme = PrependScheme::Never;
  CHECK(MetaspaceDecoder(never).join({"\u2581a"}) == " a");
}

TEST_CASE("unigram: the best-scoring segmentation, the first one on a tie") {
  TinyUnigram u({{"<unk>", 0}, {"a", -1}, {"b", -1}, {"ab", -1.5}, {"abc", -5}, {"c", -1}}, 0);
  CHECK(u.split("ab") == "ab@0:2");
  CHECK(u.split("abc") == "ab@0:2 c@2:3");
  TinyUnigram tie({{"<unk>", 0}, {"a", -1}, {"b", -1}, {"ab", -2}}, 0);
  CHECK(tie.split("ab") == "ab@0:2");  // ab reaches the end first (from the start); a+b only equals it
}

TEST_CASE("unigram: characters no piece covers fuse into one unknown piece, or bytes with byte_fallback") {
  TinyUnigram u({{"<unk>", 0}, {"a", -1}}, 0);
  CHECK(u.split("a\xC3\xA9\xC3\xA9" "a") == "a@0:1 <unk>@1:5 a@5:6");
  std::vector<std::pair<std::string, double>> pieces{{"<unk>", 0}, {"a", -1}};
  for (int b = 0; b < 256; ++b) pieces.emplace_back(fmt::format("<0x{:02X}>", b), -10);
  TinyUnigram bytes(pieces, 0, true);
  CHECK(bytes.split("\xC3\xA9") == "<0xC3>@0:2 <0xA9>@0:2");
  TinyUnigram no_unk({{"a", -1}}, -1);
  bktest::expect_bad_input([&] { no_unk.split("b"); }, "", "no unk_id");
}

TEST_CASE("unigram tokenizer: a folder with only a SentencePiece model is refused, naming what to do") {
  bktest::TempDir dir;
  std::ofstream(dir.path() / "sentencepiece.bpe.model") << "x";
  bktest::expect_bad_input([&] { read_tokenizer_files(dir.path()); }, dir.path(), "only a SentencePiece model");
}

TEST_CASE("unigram tokenizer: CamemBERT's tokenizer.json end to end") {
  const Tokenizer& tok = bktest::shared_tokenizer("sentence-camembert-base");
  Encoding e = tok.encode("Bonjour le monde !", std::nullopt, {});
  CHECK(bktest::tokens_str(e, tok) == "<s> \u2581Bonjour \u2581le \u2581monde \u2581! </s>");
  CHECK(bktest::char_offsets_str(e, "Bonjour le monde !") == "0:0 0:7 7:10 10:16 16:18 0:0");
  CHECK(tok.decode(e.ids, true) == "Bonjour le monde!");
  CHECK(tok.encode("Bonjour <mask>", std::nullopt, {}).ids[2] == tok.mask_id());
}

TEST_CASE("tokenizer.json: a Unigram vocab list is read as [piece, score] pairs, not built as a DOM") {
  using bertkit::tok::parse_tokenizer_json;
  auto file = parse_tokenizer_json(R"({"model": {"type": "Unigram", "unk_id": 0, "vocab": [["<unk>", 0], ["a", -1.5], ["b", 2]]}})",
                                   "t.json");
  REQUIRE(file.scored_vocab);
  REQUIRE(file.scored_vocab->size() == 3);
  CHECK((*file.scored_vocab)[1] == std::pair<std::string, double>{"a", -1.5});
  CHECK((*file.scored_vocab)[2].second == 2.0);
  CHECK(!file.vocab);
  CHECK(!file.rest.at("model").contains("vocab"));
  CHECK(file.rest.at("model").at("unk_id") == 0);
  for (const char* bad : {R"([["a"]])", R"([["a", 1, 2]])", R"([[1, "a"]])", R"(["a"])", R"([["a", {"x": 1}]])",
                          R"([["a", [1]]])", R"([["a", null]])"}) {
    INFO(bad);
    const std::string text = std::string(R"({"model": {"vocab": )") + bad + "}}";
    CHECK_THROWS_WITH_AS(parse_tokenizer_json(text, "t.json"), "t.json: Unigram vocab entry 0 is not [piece, score]",
                         bertkit::Error);
  }
  // model.vocab twice: the last one counts, as for an object.
  auto twice = parse_tokenizer_json(R"({"model": {"vocab": [["a", 1]], "vocab": {"a": 0}}})", "t.json");
  CHECK(!twice.scored_vocab);
  REQUIRE(twice.vocab);
  CHECK(twice.vocab->size() == 1);
}
