// `bertkit similarity` against sentence-transformers' cosine similarities of minilm-embed and the
// text-classification pipeline's scores of the bert-chinese-cross cross-encoder (goldens loaded at
// run time).
#include "cli/task_cli_helpers.h"

#include <doctest/doctest.h>
#include <nlohmann/json.hpp>

#include <algorithm>
#include <cmath>
#include <fstream>

using nlohmann::json;

namespace {

using bktest::kTolerance;

}  // namespace

TEST_CASE("similarity: minilm-embed pairs give sentence-transformers' cosine") {
  const json se = bktest::fixture_goldens("minilm-embed")["sentence_embeddings"];
  const json& sentences = se["sentences"];
  std::string input;
  for (const auto& p : se["cosine_pairs"])
    input += json{{"a", sentences[p["a"].get<std::size_t>()]}, {"b", sentences[p["b"].get<std::size_t>()]}}.dump() + "\n";
  auto cosine = bktest::run_jsonl({"similarity", "-m", bktest::fixture_path("minilm-embed"), "--jsonl", "--field", "a", "--pair-field", "b"}, input);
  REQUIRE(cosine.size() == se["cosine_pairs"].size());
  // The embeddings are normalised, so dot = cosine and the Euclidean distance is sqrt(2 - 2 cos).
  auto dot = bktest::run_jsonl({"similarity", "-m", bktest::fixture_path("minilm-embed"), "--jsonl", "--field", "a", "--pair-field", "b",
                        "--metric", "dot"}, input);
  auto euclid = bktest::run_jsonl({"similarity", "-m", bktest::fixture_path("minilm-embed"), "--jsonl", "--field", "a", "--pair-field", "b",
                           "--metric", "euclidean"}, input);
  for (std::size_t i = 0; i < cosine.size(); ++i) {
    CAPTURE(i);
    const double expected = se["cosine_pairs"][i]["cosine"].get<double>();
    CHECK(std::abs(cosine[i]["score"].get<double>() - expected) < kTolerance);
    CHECK(std::abs(dot[i]["score"].get<double>() - expected) < kTolerance);
    CHECK(std::abs(euclid[i]["score"].get<double>() + std::sqrt(std::max(0.0, 2 - 2 * expected))) < 1e-3);
  }
  // Two texts as arguments are one pair.
  const auto& first = se["cosine_pairs"][0];
  auto two = bktest::run_jsonl({"similarity", "-m", bktest::fixture_path("minilm-embed"), sentences[first["a"].get<std::size_t>()],
                        sentences[first["b"].get<std::size_t>()]});
  REQUIRE(two.size() == 1);
  CHECK(std::abs(two[0]["score"].get<double>() - first["cosine"].get<double>()) < kTolerance);
}

TEST_CASE("similarity: search over a corpus ranks by the cosine matrix" * doctest::test_suite("threads")) {
  const json se = bktest::fixture_goldens("minilm-embed")["sentence_embeddings"];
  const json& sentences = se["sentences"];
  const json& matrix = se["cosine_matrix"];
  std::string corpus;
  for (const auto& s : sentences) corpus += json{{"text", s}}.dump() + "\n";
  bktest::TempDir dir;
  {
    std::ofstream(dir / "corpus.jsonl", std::ios::binary) << corpus;
  }
  const std::size_t k = 5;
  auto results = bktest::run_jsonl({"similarity", "-m", bktest::fixture_path("minilm-embed"), "--queries", (dir / "corpus.jsonl").string(),
                            "--corpus", (dir / "corpus.jsonl").string(), "--top-k", std::to_string(k),
                            "--batch-size", "3"});
  REQUIRE(results.size() == sentences.size());
  for (std::size_t q = 0; q < results.size(); ++q) {
    CAPTURE(q);
    CHECK(results[q]["text"] == sentences[q]);
    const json& hits = results[q]["results"];
    REQUIRE(hits.size() == k);
    // The k-th best golden cosine: every hit is at least that (within the tolerance), best first.
    std::vector<double> row = matrix[q].get<std::vector<double>>();
    std::vector<double> sorted = row;
    std::sort(sorted.rbegin(), sorted.rend());
    double previous = 2;
    for (const auto& hit : hits) {
      const auto index = hit["index"].get<std::size_t>();
      CHECK(hit["text"] == sentences[index]);
      CHECK(std::abs(hit["score"].get<double>() - row[index]) < kTolerance);
      CHECK(hit["score"].get<double>() <= previous);
      CHECK(row[index] >= sorted[k - 1] - kTolerance);
      previous = hit["score"].get<double>();
    }
  }
  // --query with the same corpus gives the same hits as the first query of the file.
  auto one = bktest::run_jsonl({"similarity", "-m", bktest::fixture_path("minilm-embed"), "--query", sentences[0], "--corpus",
                        (dir / "corpus.jsonl").string(), "--top-k", std::to_string(k)});
  REQUIRE(one.size() == 1);
  CHECK(one[0]["results"] == results[0]["results"]);
}

TEST_CASE("similarity: a cross-encoder scores pairs as the text-classification pipeline does") {
  const json g = bktest::fixture_goldens("bert-chinese-cross");
  std::size_t checked = 0;
  for (const auto& p : g["pipelines"]) {
    if (!p["call"].contains("top_k") || !p["call"]["top_k"].is_null() || p["call"].contains("function_to_apply")) continue;
    CAPTURE(p["case"]);
    auto out = bktest::run_jsonl({"similarity", "-m", bktest::fixture_path("bert-chinese-cross"), "--compat", "python", "--jsonl",
                          "--pair-field", "text_pair"},
                         p["input"].dump() + "\n");
    REQUIRE(out.size() == 1);
    CHECK(std::abs(out[0]["score"].get<double>() - p["output"][0]["score"].get<double>()) < kTolerance);
    ++checked;
  }
  CHECK(checked > 0);
  // A metric compares embeddings: a cross-encoder has none.
  CHECK(bktest::run_bertkit({"similarity", "-m", bktest::fixture_path("bert-chinese-cross"), "--metric", "dot", "a", "b"}).exit_code == 2);
}
