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

std::vector<float> embedding_of(const std::string& text, const std::string& prefix = "") {
  std::vector<std::string> args{"embed", "-m", bktest::fixture_path("minilm-embed"), text};
  if (!prefix.empty()) args.insert(args.end(), {"--prefix", prefix});
  auto out = run_jsonl(args);
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

TEST_CASE("similarity: CSV pairs keep every column and add score, stdin pairs equal JSONL pairs") {
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

TEST_CASE("similarity: a cross-encoder's activation is the checkpoint's, --function overrides it (issue 19, item 3)") {
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

TEST_CASE("similarity --corpus: each hit carries its corpus record's fields as written (issue 30)") {
  bktest::TempDir dir;
  const std::string model = bktest::fixture_path("minilm-embed");
  // JSONL: every member (a 23-digit id keeps its digits), between the hit's index and score.
  const auto jsonl = (dir / "corpus.jsonl").string();
  bktest::write_file(jsonl, R"({"id": 12345678901234567890123, "body": "A man is eating food.", "tags": ["x"]})"
                            "\n" R"({"id": 7, "body": "A man is riding a horse."})" "\n");
  auto r = run_bertkit({"similarity", "-m", model, "--query", "a man eats", "--corpus", jsonl, "--field", "body"});
  INFO(r.err);
  REQUIRE(r.exit_code == 0);
  CHECK(r.out.find(R"({"index":0,"id":12345678901234567890123,"body":"A man is eating food.","tags":["x"],"score":)") !=
        std::string::npos);
  const json hits = json::parse(r.out).at("results");
  REQUIRE(hits.size() == 2);
  for (const json& hit : hits) {
    const std::size_t i = hit.at("index");
    CHECK(hit.at("body") == (i == 0 ? "A man is eating food." : "A man is riding a horse."));
    CHECK(hit.contains("score"));
  }

  // CSV: every column, as strings named by the header.
  const auto csv = (dir / "corpus.csv").string();
  bktest::write_file(csv, "id,text,lang\n17,A man is eating food.,en\n18,Ein Mann reitet.,de\n");
  auto rows = run_jsonl({"similarity", "-m", model, "--query", "a man eats", "--corpus", csv, "--column", "text", "--top-k", "1"});
  REQUIRE(rows.size() == 1);
  const json& best = rows[0].at("results").at(0);
  CHECK(best.at("id") == (best.at("index") == 0 ? "17" : "18"));
  CHECK(best.at("lang") == (best.at("index") == 0 ? "en" : "de"));
  CHECK(best.size() == 5);  // index, id, text, lang, score

  // Lines: index, text and score, as before.
  const auto txt = (dir / "corpus.txt").string();
  bktest::write_file(txt, "A man is eating food.\n");
  auto plain = run_jsonl({"similarity", "-m", model, "--query", "a man eats", "--corpus", txt});
  REQUIRE(plain.size() == 1);
  CHECK(plain[0].at("results").at(0).size() == 3);
  CHECK(plain[0].at("results").at(0).at("text") == "A man is eating food.");

  // A corpus field named like a hit's own is refused, naming it; --output-prefix renames the hit's.
  bktest::write_file(jsonl, R"({"text": "a", "score": 5})" "\n");
  auto clash = run_bertkit({"similarity", "-m", model, "--query", "q", "--corpus", jsonl});
  CHECK(clash.exit_code == 2);
  CHECK(clash.err.find(jsonl + ":1: the input field 'score' is also an output field") != std::string::npos);
  auto renamed = run_jsonl({"similarity", "-m", model, "--query", "q", "--corpus", jsonl, "--output-prefix", "hit_"});
  REQUIRE(renamed.size() == 1);
  CHECK(renamed[0].at("hit_results").at(0).at("score") == 5);
  CHECK(renamed[0].at("hit_results").at(0).contains("hit_score"));
}

TEST_CASE("similarity search: the queries and the corpus texts each get their own prefix or prompt (issue 30)") {
  bktest::TempDir dir;
  const std::string model = bktest::fixture_path("minilm-embed");
  const std::vector<std::string> corpus = {"A man is eating food.", "A man is riding a horse.", "Stocks fell."};
  const auto corpus_path = (dir / "corpus.txt").string();
  bktest::write_file(corpus_path, corpus[0] + "\n" + corpus[1] + "\n" + corpus[2] + "\n");
  const std::string query = "a man eats";
  auto search = [&](std::vector<std::string> extra) {
    std::vector<std::string> args{"similarity", "-m", model, "--query", query, "--corpus", corpus_path};
    args.insert(args.end(), extra.begin(), extra.end());
    auto out = run_jsonl(args);
    REQUIRE(out.size() == 1);
    return out[0].at("results");
  };
  const json hits = search({"--query-prefix", "query: ", "--corpus-prefix", "passage: "});
  REQUIRE(hits.size() == corpus.size());
  const std::vector<float> q = embedding_of(query, "query: ");
  for (const json& hit : hits) {
    const std::size_t i = hit.at("index");
    const std::vector<float> d = embedding_of(corpus[i], "passage: ");
    double dot = 0, qq = 0, dd = 0;
    for (std::size_t k = 0; k < q.size(); ++k) {
      dot += double(q[k]) * d[k];
      qq += double(q[k]) * q[k];
      dd += double(d[k]) * d[k];
    }
    CHECK(std::abs(hit.at("score").get<double>() - dot / std::sqrt(qq * dd)) < 1e-5);
    CHECK(hit.at("text") == corpus[i]);  // the hit echoes the corpus text as written, without its prefix
  }
  CHECK(search({}) != hits);

  // Prompts by name from config_sentence_transformers.json: the same texts, so the same bytes.
  const std::string prompted = bktest::fixture_with(dir, "minilm-embed", "config_sentence_transformers.json", "prompts",
                                                    json{{"query", "query: "}, {"passage", "passage: "}});
  auto by_name = run_bertkit({"similarity", "-m", prompted, "--query", query, "--corpus", corpus_path, "--query-prompt",
                              "query", "--corpus-prompt", "passage"});
  auto by_text = run_bertkit({"similarity", "-m", prompted, "--query", query, "--corpus", corpus_path, "--query-prefix",
                              "query: ", "--corpus-prefix", "passage: "});
  REQUIRE(by_name.exit_code == 0);
  CHECK(by_name.out == by_text.out);
  CHECK(json::parse(by_name.out).at("results") == hits);

  auto both = run_bertkit({"similarity", "-m", prompted, "--query", query, "--corpus", corpus_path, "--query-prompt",
                           "query", "--query-prefix", "q: "});
  CHECK(both.exit_code == 2);
  CHECK(both.err == "bertkit: error: give --query-prefix or --query-prompt, not both\n");
  auto unknown = run_bertkit({"similarity", "-m", prompted, "--query", query, "--corpus", corpus_path, "--corpus-prompt", "doc"});
  CHECK(unknown.exit_code == 2);
  CHECK(unknown.err.find("no prompt 'doc'") != std::string::npos);
  auto pairs = run_bertkit({"similarity", "-m", model, "--query-prefix", "q: ", "a", "b"});
  CHECK(pairs.exit_code == 2);
  CHECK(pairs.err.find("apply to a search") != std::string::npos);
}

TEST_CASE("similarity search: the queries file and the corpus file each name their text (issue 30)") {
  bktest::TempDir dir;
  const std::string model = bktest::fixture_path("minilm-embed");
  const auto queries = (dir / "queries.jsonl").string(), corpus = (dir / "corpus.jsonl").string();
  bktest::write_file(queries, R"({"qid": 1, "q": "a man eats"})" "\n");
  bktest::write_file(corpus, R"({"id": 3, "body": "A man is eating food."})" "\n" R"({"id": 4, "body": "Stocks fell."})" "\n");
  auto out = run_jsonl({"similarity", "-m", model, "--queries", queries, "--queries-field", "q", "--corpus", corpus,
                        "--corpus-field", "body"});
  REQUIRE(out.size() == 1);
  CHECK(out[0].at("qid") == 1);
  auto same = run_jsonl({"similarity", "-m", model, "--query", "a man eats", "--corpus", corpus, "--corpus-field", "body"});
  CHECK(out[0].at("results") == same[0].at("results"));

  // A CSV corpus with a JSONL queries file.
  const auto csv = (dir / "corpus.csv").string();
  bktest::write_file(csv, "id,passage\n3,A man is eating food.\n4,Stocks fell.\n");
  auto mixed = run_jsonl({"similarity", "-m", model, "--queries", queries, "--queries-field", "q", "--corpus", csv,
                          "--corpus-column", "passage"});
  REQUIRE(mixed.size() == 1);
  for (std::size_t k = 0; k < 2; ++k) {
    CHECK(mixed[0].at("results")[k].at("score") == out[0].at("results")[k].at("score"));
    CHECK(mixed[0].at("results")[k].at("passage") == out[0].at("results")[k].at("body"));
  }

  auto wrong = run_bertkit({"similarity", "-m", model, "--queries", queries, "--queries-column", "q", "--corpus", csv});
  CHECK(wrong.exit_code == 2);
  CHECK(wrong.err.find("--queries-column names a column of a CSV/TSV file; " + queries + " is not one") != std::string::npos);
}
