// --truncate-dim (Matryoshka) on embed and similarity, against bertkit's own full embeddings: the
// modules (the fixture's Normalize included) run first, then the first N values are kept, renormalised
// only with --normalize; config_sentence_transformers.json's truncate_dim is the default.
#include "cli/task_cli_helpers.h"

#include <doctest/doctest.h>
#include <nlohmann/json.hpp>

#include <cmath>
#include <string>
#include <vector>

using bktest::run_bertkit;
using bktest::run_jsonl;

namespace {

const std::string kText = "A man is eating food.", kOther = "A man is riding a horse.";

std::vector<float> embedding(const std::vector<std::string>& args) {
  auto out = run_jsonl(args);
  REQUIRE(out.size() == 1);
  return out[0]["embedding"].get<std::vector<float>>();
}

std::vector<float> first(const std::vector<float>& v, std::size_t n) { return {v.begin(), v.begin() + n}; }

double norm(const std::vector<float>& v) {
  double s = 0;
  for (float x : v) s += double(x) * x;
  return std::sqrt(s);
}

}  // namespace

TEST_CASE("truncate-dim: embed keeps the first N values of the normalised embedding, unrenormalised") {
  const auto m = bktest::fixture_path("minilm-embed");
  const auto full = embedding({"embed", "-m", m, kText});
  REQUIRE(full.size() == 32);
  const auto cut = embedding({"embed", "-m", m, "--truncate-dim", "12", kText});
  CHECK(cut == first(full, 12));
  CHECK(norm(cut) < 0.99);  // no longer unit length
  // --normalize: the truncated vector normalised afterwards.
  const auto unit = embedding({"embed", "-m", m, "--truncate-dim", "12", "--normalize", kText});
  REQUIRE(unit.size() == 12);
  const double n = norm(cut);
  for (std::size_t i = 0; i < 12; ++i) CHECK(std::abs(unit[i] - cut[i] / n) < 1e-6);
  CHECK(embedding({"embed", "-m", m, "--truncate-dim", "32", kText}) == full);

  auto dry = run_bertkit({"embed", "-m", m, "--truncate-dim", "12", "--dry-run"});
  CHECK(dry.out.find("12 (the first of each embedding, --truncate-dim)") != std::string::npos);
}

TEST_CASE("truncate-dim: out of range is a usage error naming the flag and the range") {
  const auto m = bktest::fixture_path("minilm-embed");
  for (const std::string n : {"0", "33"}) {
    CAPTURE(n);
    for (const std::string cmd : {"embed", "similarity"}) {
      auto r = run_bertkit({cmd, "-m", m, "--truncate-dim", n, kText, kOther});
      CHECK(r.exit_code == 2);
      CHECK(r.err == "bertkit: error: --truncate-dim must be 1..32 (the model's dimension), not " + n + "\n");
    }
  }
  CHECK(run_bertkit({"embed", "-m", m, "--truncate-dim", "8", "--token-embeddings", kText}).exit_code == 2);
}

TEST_CASE("truncate-dim: config_sentence_transformers.json's truncate_dim is the default") {
  bktest::TempDir dir;
  const auto m = bktest::fixture_with(dir, "minilm-embed", "config_sentence_transformers.json", "truncate_dim", 10);
  const auto full = embedding({"embed", "-m", bktest::fixture_path("minilm-embed"), kText});
  CHECK(embedding({"embed", "-m", m, kText}) == first(full, 10));
  CHECK(embedding({"embed", "-m", m, "--truncate-dim", "24", kText}) == first(full, 24));
  auto dry = run_bertkit({"similarity", "-m", m, "--dry-run"});
  CHECK(dry.out.find("10 (the first of each embedding, truncate_dim of config_sentence_transformers.json)") !=
        std::string::npos);

  bktest::TempDir other;
  const auto big = bktest::fixture_with(other, "minilm-embed", "config_sentence_transformers.json", "truncate_dim", 1000);
  auto r = run_bertkit({"embed", "-m", big, kText});
  CHECK(r.exit_code == 3);
  CHECK(r.err.find("truncate_dim of config_sentence_transformers.json 1000 is more than the model's dimension 32") !=
        std::string::npos);
}

TEST_CASE("truncate-dim: similarity scores the truncated embeddings") {
  const auto m = bktest::fixture_path("minilm-embed");
  const auto a = embedding({"embed", "-m", m, "--truncate-dim", "20", kText});
  const auto b = embedding({"embed", "-m", m, "--truncate-dim", "20", kOther});
  double dot = 0;
  for (std::size_t i = 0; i < a.size(); ++i) dot += double(a[i]) * b[i];
  auto score = [&](const std::string& metric) {
    auto out = run_jsonl({"similarity", "-m", m, "--truncate-dim", "20", "--metric", metric, kText, kOther});
    REQUIRE(out.size() == 1);
    return out[0]["score"].get<double>();
  };
  CHECK(std::abs(score("dot") - dot) < 1e-5);
  CHECK(std::abs(score("cosine") - dot / (norm(a) * norm(b))) < 1e-5);
}
