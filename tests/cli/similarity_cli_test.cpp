// `bertkit similarity` end to end on the inputs and outputs the goldens test does not cover: CSV
// with every column kept, tab-separated pairs on stdin, distances that agree with `embed`'s own
// vectors, and an order that does not depend on threads or batch sizes.
#include "cli/task_cli_helpers.h"

#include <doctest/doctest.h>
#include <nlohmann/json.hpp>

#include <cmath>
#include <vector>

using bktest::run_bertkit;
using bktest::run_jsonl;
using nlohmann::json;

namespace {

const std::vector<std::pair<std::string, std::string>> kPairs = {
    {"A man is eating food.", "A man is eating a piece of bread."},
    {"The girl is carrying a baby.", "A man is riding a horse."},
    {"Stocks fell, sharply, on Monday", "\"Markets\" dropped"},
    {"a", "a"},
};

std::vector<float> embedding_of(const std::string& text) {
  auto out = run_jsonl({"embed", "-m", bktest::fixture_path("minilm-embed"), text});
  REQUIRE(out.size() == 1);
  return out[0]["embedding"].get<std::vector<float>>();
}

std::string tab_pairs() {
  std::string s;
  for (const auto& [a, b] : kPairs) s += a + "\t" + b + "\n";
  return s;
}

}  // namespace

TEST_CASE("similarity: distances are the negated distances of embed's vectors") {
  for (const std::string metric : {"euclidean", "manhattan", "dot"}) {
    CAPTURE(metric);
    auto out = run_jsonl({"similarity", "-m", bktest::fixture_path("minilm-embed"), "--pairs", "--metric", metric}, tab_pairs());
    REQUIRE(out.size() == kPairs.size());
    for (std::size_t i = 0; i < kPairs.size(); ++i) {
      CAPTURE(i);
      CHECK(out[i]["text"] == kPairs[i].first);
      CHECK(out[i]["text_pair"] == kPairs[i].second);
      const auto a = embedding_of(kPairs[i].first), b = embedding_of(kPairs[i].second);
      REQUIRE(a.size() == b.size());
      double l1 = 0, l2 = 0, dot = 0;
      for (std::size_t d = 0; d < a.size(); ++d) {
        l1 += std::abs(double(a[d]) - b[d]);
        l2 += (double(a[d]) - b[d]) * (double(a[d]) - b[d]);
        dot += double(a[d]) * b[d];
      }
      const double expected = metric == "euclidean" ? -std::sqrt(l2) : metric == "manhattan" ? -l1 : dot;
      CHECK(std::abs(out[i]["score"].get<double>() - expected) < 1e-5);
    }
  }
  // Identical texts: distance 0, cosine 1.
  auto same = run_jsonl({"similarity", "-m", bktest::fixture_path("minilm-embed"), "--metric", "euclidean", "x y", "x y"});
  CHECK(std::abs(same[0]["score"].get<double>()) < 1e-6);
}

TEST_CASE("similarity: CSV pairs keep every column and add score; stdin pairs equal JSONL pairs") {
  bktest::TempDir dir;
  std::vector<std::string> rows;
  for (std::size_t i = 0; i < kPairs.size(); ++i)
    rows.push_back(std::to_string(i) + "," + bktest::csv_quote(kPairs[i].first) + ",\"multi\nline, \"\"quoted\"\"\"," +
                   bktest::csv_quote(kPairs[i].second));
  std::string csv = "id,q,note,p\n";
  for (const auto& row : rows) csv += row + "\n";
  bktest::write_file(dir / "pairs.csv", csv);
  auto r = run_bertkit({"similarity", "-m", bktest::fixture_path("minilm-embed"), "-i", (dir / "pairs.csv").string(),
                        "--column", "q", "--pair-column", "p", "-o", (dir / "scored.csv").string()});
  INFO(r.err);
  REQUIRE(r.exit_code == 0);
  // Every input byte stays, in order; each row gains its score and truncated columns.
  auto jsonl = run_jsonl({"similarity", "-m", bktest::fixture_path("minilm-embed"), "--pairs"}, tab_pairs());
  REQUIRE(jsonl.size() == rows.size());
  std::string expected = "id,q,note,p,score,truncated\n";
  for (std::size_t i = 0; i < rows.size(); ++i) expected += rows[i] + "," + jsonl[i]["score"].dump() + ",false\n";
  CHECK(bktest::read_file(dir / "scored.csv") == expected);
}

TEST_CASE("similarity: order and scores do not depend on threads or batch sizes") {
  std::string lines;
  for (int copy = 0; copy < 5; ++copy) lines += tab_pairs();
  auto one = run_bertkit({"--threads", "1", "similarity", "-m", bktest::fixture_path("minilm-embed"), "--pairs"}, lines);
  auto two = run_bertkit({"similarity", "-m", bktest::fixture_path("minilm-embed"), "--pairs", "--threads", "2", "--batch-size",
                          "3", "--max-batch-tokens", "40"},
                         lines);
  REQUIRE(one.exit_code == 0);
  REQUIRE(two.exit_code == 0);
  const auto a = bktest::json_lines(one.out), b = bktest::json_lines(two.out);
  REQUIRE(a.size() == 5 * kPairs.size());
  REQUIRE(b.size() == a.size());
  for (std::size_t i = 0; i < a.size(); ++i) {
    CAPTURE(i);
    CHECK(a[i]["text"] == b[i]["text"]);
    CHECK(std::abs(a[i]["score"].get<double>() - b[i]["score"].get<double>()) < 1e-6);
  }
}

TEST_CASE("similarity --dry-run in search mode: the input is the queries and the corpus, not stdin") {
  bktest::TempDir dir;
  const auto corpus = (dir / "corpus.txt").string(), queries = (dir / "queries.txt").string();
  bktest::write_file(corpus, "a\nb\n");
  bktest::write_file(queries, "q\n");
  const auto model = bktest::shared("fixtures/models/minilm-embed").string();
  auto r = bktest::run_bertkit({"similarity", "-m", model, "--query", "x", "--query", "y", "--corpus", corpus, "--dry-run"});
  REQUIRE(r.exit_code == 0);
  CHECK(r.out.find("input:          2 --query texts, corpus " + corpus + "\n") != std::string::npos);
  r = bktest::run_bertkit({"similarity", "-m", model, "--queries", queries, "--corpus", corpus, "--dry-run"});
  CHECK(r.out.find("input:          queries from " + queries + ", corpus " + corpus + "\n") != std::string::npos);
  CHECK(r.out.find("stdin") == std::string::npos);
}

TEST_CASE("similarity: a cross-encoder's activation is the checkpoint's; --function overrides it (issue 19, item 3)") {
  const auto stock = bktest::shared("fixtures/models/bert-chinese-cross").string();
  auto score = [](const std::vector<std::string>& args) {
    auto r = bktest::run_bertkit(args);
    REQUIRE_MESSAGE(r.exit_code == 0, r.err);
    return nlohmann::json::parse(r.out)["score"].get<double>();
  };
  const double raw = score({"similarity", "-m", stock, "--function", "none", "a", "b"});
  const double sigmoid = score({"similarity", "-m", stock, "a", "b"});  // no activation named: sigmoid
  CHECK(sigmoid == doctest::Approx(1 / (1 + std::exp(-raw))).epsilon(1e-6));
  {
    bktest::TempDir dir;
    auto m = bktest::fixture_with(dir, "bert-chinese-cross", "config.json", "sbert_ce_default_activation_function",
                          "torch.nn.modules.linear.Identity");
    CHECK(score({"similarity", "-m", m, "a", "b"}) == raw);
    CHECK(score({"similarity", "-m", m, "--function", "sigmoid", "a", "b"}) == sigmoid);
    auto dry = bktest::run_bertkit({"similarity", "-m", m, "--dry-run"});
    CHECK(dry.out.find("then nothing (the raw logit) (torch.nn.modules.linear.Identity of config.json)") != std::string::npos);
  }
  {
    bktest::TempDir dir;  // the newer key wins over the older one
    auto m = bktest::fixture_with(dir, "bert-chinese-cross", "config.json", "sbert_ce_default_activation_function",
                          "torch.nn.modules.linear.Identity");
    auto j = bktest::read_json(std::filesystem::path(m) / "config.json");
    j["sentence_transformers"] = {{"activation_fn", "torch.nn.modules.activation.Sigmoid"}};
    bktest::write_file(std::filesystem::path(m) / "config.json", j.dump());
    CHECK(score({"similarity", "-m", m, "a", "b"}) == sigmoid);
    j["sentence_transformers"] = {{"activation_fn", "torch.nn.modules.activation.Tanh"}};
    bktest::write_file(std::filesystem::path(m) / "config.json", j.dump());
    auto r = bktest::run_bertkit({"similarity", "-m", m, "a", "b"});
    CHECK(r.exit_code == 3);
    CHECK(r.err.find("the cross-encoder activation \"torch.nn.modules.activation.Tanh\" is not supported") !=
          std::string::npos);
  }
  auto bi = bktest::run_bertkit({"similarity", "-m", bktest::shared("fixtures/models/minilm-embed").string(),
                                 "--function", "none", "a", "b"});
  CHECK(bi.exit_code == 2);
}

TEST_CASE("similarity: similarity_fn_name of config_sentence_transformers.json is the default metric (issue 19, item 4)") {
  bktest::TempDir dir;
  auto m = bktest::fixture_with(dir, "minilm-embed", "config_sentence_transformers.json", "similarity_fn_name", "dot");
  auto score = [](const std::vector<std::string>& args) {
    auto r = bktest::run_bertkit(args);
    REQUIRE_MESSAGE(r.exit_code == 0, r.err);
    return nlohmann::json::parse(r.out)["score"].get<double>();
  };
  const std::string a = "A man is eating food.", b = "A man is riding a horse.";
  const auto stock = bktest::shared("fixtures/models/minilm-embed").string();
  CHECK(score({"similarity", "-m", m, a, b}) == score({"similarity", "-m", stock, "--metric", "dot", a, b}));
  CHECK(score({"similarity", "-m", m, "--metric", "cosine", a, b}) == score({"similarity", "-m", stock, a, b}));
  auto dry = bktest::run_bertkit({"similarity", "-m", m, "--dry-run"});
  CHECK(dry.out.find("bi-encoder: dot of the two embeddings (similarity_fn_name of config_sentence_transformers.json)") !=
        std::string::npos);
  // Kept by convert.
  const auto file = (dir / "m.bk").string();
  REQUIRE(bktest::run_bertkit({"convert", m, file}).exit_code == 0);
  CHECK(score({"similarity", "-m", file, a, b}) == score({"similarity", "-m", m, a, b}));
  // A name sentence-transformers does not have is bad input naming the file.
  bktest::TempDir other;
  auto bad = bktest::fixture_with(other, "minilm-embed", "config_sentence_transformers.json", "similarity_fn_name", "jaccard");
  auto r = bktest::run_bertkit({"similarity", "-m", bad, a, b});
  CHECK(r.exit_code == 3);
  CHECK(r.err.find("config_sentence_transformers.json: similarity_fn_name \"jaccard\" is not one of cosine, dot, "
                   "euclidean, manhattan") != std::string::npos);
}
