// `bertkit tokenize` on DeBERTa-v3 folders that hold spm.model and no tokenizer.json (issue 32, item 2):
// read as transformers' slow DebertaV2Tokenizer, ids from the fixtures' goldens.json, --compat python
// changing nothing, decoding, and damaged or unsupported SentencePiece files refused in one line.
#include "support.h"

#include <doctest/doctest.h>
#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include <filesystem>
#include <fstream>

using bktest::run_bertkit;
using nlohmann::json;
namespace fs = std::filesystem;

namespace {

const std::string kNli = bktest::shared("fixtures/models3/deberta-v3-nli").string();

// The goldens' cases as input lines (pairs: text TAB text_pair) and their ids, one line each.
struct Cases {
  std::string input;
  std::vector<json> ids;
};
Cases cases_of(const std::string& folder, bool pairs) {
  Cases out;
  const json goldens = bktest::read_json(bktest::shared("fixtures/models3/" + folder + "/goldens.json"));
  for (const json& c : goldens["cases"]) {
    if (c.contains("text_pair") != pairs) continue;
    // One input line a case: texts with line breaks or tabs are left to the in-process golden test.
    const std::string both = c["text"].get<std::string>() + c.value("text_pair", "");
    if (both.find_first_of("\n\r\t") != std::string::npos) continue;
    out.input += c["text"].get<std::string>() + (pairs ? "\t" + c["text_pair"].get<std::string>() : "") + "\n";
    out.ids.push_back(c["input_ids"]);
  }
  return out;
}

// Returns the number of cases checked.
std::size_t check_ids(const std::string& folder, bool pairs, const std::vector<std::string>& extra = {}) {
  const Cases cases = cases_of(folder, pairs);
  if (cases.ids.empty()) return 0;
  std::vector<std::string> args{"tokenize", "-m", bktest::shared("fixtures/models3/" + folder).string()};
  if (pairs) args.emplace_back("--pairs");
  args.insert(args.end(), extra.begin(), extra.end());
  const auto r = run_bertkit(args, cases.input);
  REQUIRE(r.exit_code == 0);
  CHECK(r.err.empty());
  const auto records = bktest::json_lines(r.out);
  REQUIRE(records.size() == cases.ids.size());
  for (std::size_t i = 0; i < records.size(); ++i) {
    CAPTURE(records[i]["text"]);
    CHECK(records[i]["ids"] == cases.ids[i]);
    CHECK(records[i]["offsets"].size() == cases.ids[i].size());
  }
  return records.size();
}

}  // namespace

TEST_CASE("tokenize: a DeBERTa-v3 folder with only spm.model gives the slow tokenizer's ids, texts and pairs") {
  for (const char* folder : {"deberta-v3-nli", "deberta-v3-rerank", "deberta-v3-ner", "deberta-v3-mlm"}) {
    CAPTURE(folder);
    CHECK(check_ids(folder, false) + check_ids(folder, true) >= 10);
  }
  // --compat python is what the folder gives already.
  CHECK(check_ids("deberta-v3-nli", true, {"--compat", "python"}) >= 10);
}

TEST_CASE("tokenize: spm.model's byte fallback, [MASK] at 128000 and decoding through the binary") {
  auto r = run_bertkit({"tokenize", "-m", kNli, "--format", "tokens", "\xF0\x9F\xA6\xA9 flamingo [MASK]"});
  REQUIRE(r.exit_code == 0);
  CHECK(r.out == "[CLS] \xE2\x96\x81 <0xF0> <0x9F> <0xA6> <0xA9> \xE2\x96\x81" "flamingo [MASK] [SEP]\n");
  r = run_bertkit({"tokenize", "-m", kNli, "--offsets", "chars", "\xF0\x9F\xA6\xA9 x"});
  REQUIRE(r.exit_code == 0);
  // Each byte piece spans the character it comes from.
  CHECK(bktest::json_lines(r.out)[0]["offsets"] == json::parse("[[0,0],[0,0],[0,1],[0,1],[0,1],[0,1],[1,3],[0,0]]"));
  r = run_bertkit({"tokenize", "-m", kNli, "--decode", "--skip-special-tokens", "--format", "tokens"},
                  "1 507 244 163 170 173 72850 128000 2\n");
  REQUIRE(r.exit_code == 0);
  CHECK(r.out == "\xF0\x9F\xA6\xA9 flamingo\n");
}

TEST_CASE("tokenize: a damaged spm.model and a folder with only another SentencePiece model are refused in one line") {
  bktest::TempDir dir;
  std::string bytes = bktest::read_file(bktest::shared("vocab/deberta-v3-base/spm.model"));
  bktest::write_file(dir.path() / "spm.model", bytes.substr(0, bytes.size() / 2));
  auto r = run_bertkit({"tokenize", "-m", dir.path().string(), "x"});
  CHECK(r.exit_code == 3);
  CHECK(bktest::count_lines(r.err) == 1);
  CHECK(r.err.find((dir.path() / "spm.model").string() + ": not a SentencePiece model") != std::string::npos);
  CHECK(r.err.find("runs past the end") != std::string::npos);
  bktest::TempDir other;
  bktest::write_file(other.path() / "sentencepiece.bpe.model", bytes);
  r = run_bertkit({"tokenize", "-m", other.path().string(), "x"});
  CHECK(r.exit_code == 3);
  CHECK(bktest::count_lines(r.err) == 1);
  CHECK(r.err.find("only a SentencePiece model (sentencepiece.bpe.model)") != std::string::npos);
}

TEST_CASE("tokenize: with tokenizer.json beside spm.model the file rules, and --compat python reads spm.model") {
  bktest::TempDir dir;
  // Any Unigram tokenizer.json shows which file was read: sentence-camembert-base's gives other ids.
  bktest::write_file(dir.path() / "tokenizer.json", bktest::read_file(bktest::shared("vocab/sentence-camembert-base/tokenizer.json")));
  bktest::write_file(dir.path() / "spm.model", bktest::read_file(bktest::shared("vocab/deberta-v3-base/spm.model")));
  const std::string text = "Paris is the capital of France.";
  auto ids = [&](const std::string& model, const std::vector<std::string>& extra) {
    std::vector<std::string> args{"tokenize", "-m", model, "--format", "ids", text};
    args.insert(args.end(), extra.begin(), extra.end());
    const auto r = run_bertkit(args);
    REQUIRE(r.exit_code == 0);
    return r.out;
  };
  const std::string fast = ids(dir.path().string(), {});
  CHECK(fast == ids(bktest::shared("vocab/sentence-camembert-base").string(), {}));
  const std::string slow = ids(dir.path().string(), {"--compat", "python"});
  CHECK(slow == ids(bktest::shared("vocab/deberta-v3-base").string(), {}));
  CHECK(slow != fast);
}
