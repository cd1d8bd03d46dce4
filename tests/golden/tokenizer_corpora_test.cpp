// Every line of every corpus under ../shared/corpora, for every vocabulary, against the reference
// tokenizations recorded by Hugging Face's libraries (ids, tokens, offsets, pairs, truncation), in the
// default (Rust tokenizers) behaviour and in --compat python.
#include "golden/char_offsets.h"
#include "golden/token_strings.h"
#include "support.h"

#include "tokenizer/loader.h"
#include "tokenizer/tokenizer.h"

#include <doctest/doctest.h>
#include <fmt/format.h>
#include <fmt/ranges.h>

#include <filesystem>
#include <map>

using bertkit::tok::Encoding;
using bertkit::tok::Tokenizer;
using nlohmann::json;
namespace fs = std::filesystem;

namespace {

// Which of a vocabulary folder's files the tokenizer is read from.
enum class Source { TokenizerJson, VocabTxt, BpeFiles, Folder };

std::unique_ptr<Tokenizer> load(const std::string& model, bertkit::tok::UnicodeProfile profile, Source source) {
  auto dir = bktest::shared("vocab/" + model);
  bertkit::tok::TokenizerFiles files;
  if (source == Source::VocabTxt) {
    files = bertkit::tok::read_tokenizer_files(dir / "vocab.txt");
  } else if (source == Source::BpeFiles) {
    // What transformers' RobertaTokenizer reads: vocab.json, merges.txt and tokenizer_config.json.
    files.origin = dir.string();
    files.vocab_json = bktest::read_file(dir / "vocab.json");
    files.merges_txt = bktest::read_file(dir / "merges.txt");
    files.tokenizer_config_json = bktest::read_file(dir / "tokenizer_config.json");
  } else if (source == Source::Folder) {
    files = bertkit::tok::read_tokenizer_files(dir);
  } else {
    files = bertkit::tok::read_tokenizer_files(dir / "tokenizer.json");
  }
  auto spec = bertkit::tok::build_tokenizer_spec(files);
  if (source == Source::VocabTxt) spec.bert_normalizer().lowercase = model == "bert-base-uncased";
  if (source != Source::Folder) spec.profile = profile;
  return std::make_unique<Tokenizer>(std::move(spec));
}

// First index where two sequences differ, or -1.
template <typename A, typename B>
long first_difference(const A& a, const B& b) {
  std::size_t n = std::min(a.size(), b.size());
  for (std::size_t i = 0; i < n; ++i)
    if (!(a[i] == b[i])) return static_cast<long>(i);
  return a.size() == b.size() ? -1 : static_cast<long>(n);
}

struct Checker {
  std::string where;
  std::vector<std::string> failures;

  template <typename A, typename B>
  void same(const char* field, const A& got, const B& want, const Encoding* enc, const Tokenizer& tok) {
    long at = first_difference(got, want);
    if (at < 0) return;
    std::string context;
    if (enc && static_cast<std::size_t>(at) < enc->ids.size())
      context = fmt::format(" (token '{}')", tok.token(enc->ids[static_cast<std::size_t>(at)]));
    failures.push_back(fmt::format("{}: {} differ at token {}{}", where, field, at, context));
  }
};

void check_model(const std::string& model, bool python, Source source) {
  auto tok = load(model, python ? bertkit::tok::UnicodeProfile::Python : bertkit::tok::UnicodeProfile::Rust,
                  source);
  std::size_t lines = 0;
  Checker check;
  for (const auto& entry : fs::directory_iterator(bktest::shared("corpora/golden/" + model))) {
    std::string corpus = entry.path().filename().string();
    std::size_t line_no = 0;
    for (const std::string& line : bktest::read_lines(entry.path())) {
      if (line_no++ % bktest::kSweepStride != 0) continue;
      ++lines;
      json rec = json::parse(line);
      check.where = fmt::format("{}/{}:{}{}", model, corpus, line_no, python ? " (--compat python)" : "");
      bool pair = rec.contains("text_a");
      std::string a = pair ? rec["text_a"].get<std::string>() : rec["text"].get<std::string>();
      std::string b = pair ? rec["text_b"].get<std::string>() : "";
      std::optional<std::string_view> bv;
      if (pair) bv = b;
      const json& want = python && rec.contains("python") ? rec["python"] : json::object();
      auto expect = [&](const char* key) -> const json& { return want.contains(key) ? want[key] : rec[key]; };

      Encoding e = tok->encode(a, bv, {});
      check.same("ids", e.ids, expect("ids").get<std::vector<int>>(), &e, *tok);
      check.same("tokens", bktest::token_strings(e, *tok), expect("tokens").get<std::vector<std::string>>(), &e, *tok);
      if (pair) check.same("type_ids", e.type_ids, expect("type_ids").get<std::vector<int>>(), &e, *tok);
      // The slow SentencePiece tokenizer has no offsets to compare.
      if (!python && rec.contains("offsets")) {
        check.same("offsets", bktest::char_offsets(e, a, b), rec["offsets"].get<std::vector<std::vector<std::uint32_t>>>(), &e, *tok);
        check.same("offsets_utf8", bktest::offset_pairs(e.offsets),
                   rec["offsets_utf8"].get<std::vector<std::vector<std::uint32_t>>>(), &e, *tok);
      }
      for (auto [key, len] : {std::pair{"trunc16", 16}, std::pair{"trunc128", 128}}) {
        if (!rec.contains(key)) continue;
        bertkit::tok::EncodeOptions opts;
        opts.truncation = bertkit::tok::TruncationParams{static_cast<std::size_t>(len)};
        Encoding t = tok->encode(a, bv, opts);
        check.same(key, t.ids, expect(key).get<std::vector<int>>(), &t, *tok);
      }
      if (check.failures.size() > 20) break;
    }
  }
  INFO(model << ": " << check.failures.size() << " mismatches over " << lines << " lines");
  for (std::size_t i = 0; i < std::min<std::size_t>(check.failures.size(), 20); ++i) MESSAGE(check.failures[i]);
  CHECK(lines > 1000 / bktest::kSweepStride);
  CHECK(check.failures.empty());
}

const char* kCorpusModels[] = {"bert-base-uncased", "bert-base-cased", "bert-base-multilingual-cased", "bert-base-chinese"};

}  // namespace

TEST_CASE("golden corpora: fast tokenizer (tokenizer.json), every line identical") {
  for (const char* model : kCorpusModels) {
    SUBCASE(model) { check_model(model, false, Source::TokenizerJson); }
  }
}

TEST_CASE("golden corpora: fast tokenizer from vocab.txt, every line identical") {
  for (const char* model : kCorpusModels) {
    SUBCASE(model) { check_model(model, false, Source::VocabTxt); }
  }
}

TEST_CASE("golden corpora: --compat python, every line identical") {
  for (const char* model : kCorpusModels) {
    SUBCASE(model) { check_model(model, true, Source::TokenizerJson); }
  }
}

// A WordPiece model behind RoBERTa's post-processor (<s> A </s></s> B </s>, trim_offsets), as its
// tokenizer.json composes them. Its vocab.txt alone and --compat python stand for other tokenizers
// (BERT's template, MPNetTokenizer), which the MPNet family brings.
TEST_CASE("golden corpora: all-mpnet-base-v2 (tokenizer.json), every line identical") {
  check_model("all-mpnet-base-v2", false, Source::TokenizerJson);
}

// Byte-level BPE: GPT-2's pattern, the byte alphabet, merges, RobertaProcessing's trim_offsets.
TEST_CASE("golden corpora: roberta-base (tokenizer.json), every line identical") {
  check_model("roberta-base", false, Source::TokenizerJson);
}

// The slow RobertaTokenizer's files, converted as transformers converts them; the Python tokenizer
// agrees with the fast one on every line of the corpora (corpora/golden/README.md).
TEST_CASE("golden corpora: roberta-base (vocab.json + merges.txt), every line identical") {
  check_model("roberta-base", false, Source::BpeFiles);
}

// A SentencePiece Unigram model as its tokenizer.json composes it (Precompiled charsmap + Replace,
// Metaspace, <s> A </s></s> B </s>), the file's own truncation and padding ignored as transformers does.
TEST_CASE("golden corpora: sentence-camembert-base (tokenizer.json, Unigram), every line identical") {
  check_model("sentence-camembert-base", false, Source::TokenizerJson);
}

// DeBERTa-v3's spm.model read directly, as transformers' slow DebertaV2Tokenizer runs it over
// sentencepiece (byte fallback, each piece between special tokens with its own dummy prefix, the slow
// longest_first truncation): the folder holds only spm.model and tokenizer_config.json.
TEST_CASE("golden corpora: deberta-v3-base (spm.model), every line identical") {
  check_model("deberta-v3-base", false, Source::Folder);
}
