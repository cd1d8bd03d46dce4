// `bertkit embed` against what sentence-transformers and transformers computed for the minilm-embed
// fixture (goldens.json, loaded at run time).
#include "cli/task_cli_helpers.h"

#include <doctest/doctest.h>
#include <nlohmann/json.hpp>

#include <algorithm>
#include <cmath>
#include <fstream>

using nlohmann::json;

namespace {

using bktest::kTolerance;

// One JSONL record per sentence: the texts (leading spaces, an empty one) go through unchanged.
std::string sentences_jsonl(const json& sentences) {
  std::string out;
  for (const auto& s : sentences) out += json{{"text", s}}.dump() + "\n";
  return out;
}

// The `field` of every record, as one JSON array.
json column(const std::vector<json>& records, const char* field) {
  json out = json::array();
  for (const auto& r : records) out.push_back(r.at(field));
  return out;
}

// Two lists of float vectors agree within the tolerance.
void check_close(const json& got, const json& expected) {
  REQUIRE(got.size() == expected.size());
  for (std::size_t i = 0; i < got.size(); ++i) {
    CAPTURE(i);
    REQUIRE(got[i].size() == expected[i].size());
    double worst = 0;
    for (std::size_t j = 0; j < got[i].size(); ++j)
      worst = std::max(worst, std::abs(got[i][j].get<double>() - expected[i][j].get<double>()));
    CHECK(worst < kTolerance);
  }
}

}  // namespace

TEST_CASE("embed: minilm-embed sentence embeddings equal sentence-transformers'" * doctest::test_suite("threads")) {
  const json se = bktest::fixture_goldens("minilm-embed")["sentence_embeddings"];
  const std::string input = sentences_jsonl(se["sentences"]);
  const std::string m = bktest::fixture_path("minilm-embed");

  SUBCASE("normalized, one sentence per batch") {
    check_close(column(bktest::run_jsonl({"embed", "-m", m, "--jsonl", "--batch-size", "1"}, input), "embedding"), se["normalized"]);
  }
  SUBCASE("normalized, all sentences in one batch") {
    check_close(column(bktest::run_jsonl({"embed", "-m", m, "--jsonl"}, input), "embedding"), se["normalized_batched"]);
  }
  SUBCASE("mean pooled, without the Normalize module") {
    check_close(column(bktest::run_jsonl({"embed", "-m", m, "--jsonl", "--no-normalize"}, input), "embedding"), se["mean_pooled"]);
  }
  SUBCASE("with two threads and a small token budget") {
    auto records = bktest::run_jsonl({"--threads", "2", "embed", "-m", m, "--jsonl", "--max-batch-tokens", "40"}, input);
    check_close(column(records, "embedding"), se["normalized"]);
  }
  SUBCASE("the long sentence is cut at max_seq_length and marked") {
    auto records = bktest::run_jsonl({"embed", "-m", m, "--jsonl", "--token-embeddings"}, input);
    REQUIRE(records.size() == se["input_ids"].size());
    for (std::size_t i = 0; i < records.size(); ++i) {
      CAPTURE(i);
      CHECK(records[i]["tokens"].size() == se["input_ids"][i].size());
      bool at_limit = se["input_ids"][i].size() == se["max_seq_length"].get<std::size_t>();
      CHECK(records[i].value("truncated", false) == at_limit);
    }
  }
}

// The wave-2 sentence-transformers folders end to end: MPNet (its tokenizer.json is WordPiece with
// <s> ... </s>; max_seq_length 384 cuts the long sentence) and CamemBERT (Unigram; 128).
TEST_CASE("embed: mpnet-embed and camembert-embed sentence embeddings equal sentence-transformers'") {
  for (const char* name : {"mpnet-embed", "camembert-embed"}) {
    INFO(name);
    const json se = bktest::models2_goldens(name)["sentence_embeddings"];
    REQUIRE(se["fast_input_ids"].empty());  // the Rust tokenizer's ids are the recorded ones
    const std::string input = sentences_jsonl(se["sentences"]);
    const std::string m = bktest::models2_path(name);
    check_close(column(bktest::run_jsonl({"embed", "-m", m, "--jsonl", "--batch-size", "1"}, input), "embedding"),
                se["normalized"]);
    check_close(column(bktest::run_jsonl({"embed", "-m", m, "--jsonl"}, input), "embedding"), se["normalized_batched"]);
    check_close(column(bktest::run_jsonl({"embed", "-m", m, "--jsonl", "--no-normalize"}, input), "embedding"),
                se["mean_pooled"]);
    auto records = bktest::run_jsonl({"embed", "-m", m, "--jsonl", "--token-embeddings"}, input);
    REQUIRE(records.size() == se["input_ids"].size());
    for (std::size_t i = 0; i < records.size(); ++i) {
      CAPTURE(i);
      CHECK(records[i]["tokens"].size() == se["input_ids"][i].size());
    }
  }
}

TEST_CASE("embed --token-embeddings equals the feature-extraction pipeline") {
  const json g = bktest::fixture_goldens("minilm-embed");
  std::size_t checked = 0;
  for (const auto& p : g["pipelines"]) {
    if (p["init"]["task"] != "feature-extraction") continue;
    CAPTURE(p["input"]);
    auto records = bktest::run_jsonl({"embed", "-m", bktest::fixture_path("minilm-embed"), "--compat", "python", "--token-embeddings",
                              "--jsonl"},
                             json{{"text", p["input"]}}.dump() + "\n");
    REQUIRE(records.size() == 1);
    check_close(records[0]["token_embeddings"], p["output"][0]);
    ++checked;
  }
  CHECK(checked > 0);
}

// A converted file with reduced weights is usable by every command (computed in its type; f16 in f32)
// and stays within its type's accuracy bound of sentence-transformers' embeddings: cosine similarity per
// sentence at least 0.9999 for f16 (11-bit mantissa), 0.999 for bf16 (8-bit) and 0.999 for int8 (8 bits
// per output channel of the weights and per token of the activations; about 0.9997 measured).
TEST_CASE("embed: f16, bf16 and int8 converted files stay within their accuracy bounds") {
  const json se = bktest::fixture_goldens("minilm-embed")["sentence_embeddings"];
  const std::string input = sentences_jsonl(se["sentences"]);
  const json& expected = se["normalized_batched"];
  bktest::TempDir dir;
  for (const auto& [dtype, bound] : std::vector<std::pair<std::string, double>>{{"f16", 0.9999}, {"bf16", 0.999}, {"int8", 0.999}}) {
    const std::string& type = dtype;  // clang 14 cannot capture a structured binding in CAPTURE's lambda
    CAPTURE(type);
    const std::string file = (dir / (dtype + ".bk")).string();
    auto converted = bktest::run_bertkit({"-q", "convert", "--dtype", dtype, bktest::fixture_path("minilm-embed"), file});
    REQUIRE_MESSAGE(converted.exit_code == 0, converted.err);
    auto got = column(bktest::run_jsonl({"embed", "-m", file, "--jsonl"}, input), "embedding");
    REQUIRE(got.size() == expected.size());
    double worst = 1;
    for (std::size_t i = 0; i < got.size(); ++i) {
      double dot = 0, a2 = 0, b2 = 0;
      for (std::size_t k = 0; k < got[i].size(); ++k) {
        const double a = got[i][k].get<double>(), b = expected[i][k].get<double>();
        dot += a * b, a2 += a * a, b2 += b * b;
      }
      worst = std::min(worst, dot / std::sqrt(a2 * b2));
    }
    MESSAGE(dtype << ": lowest cosine " << worst);
    CHECK(worst >= bound);
  }
}
