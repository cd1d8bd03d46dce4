// `bertkit rerank` end to end: JSONL lists, CSV rows grouped by query, documents of one --query. The
// expected scores are the cross-encoder's scores of each (query, document) pair as `similarity` gives
// them (checked against sentence-transformers' goldens in similarity's tests); the expected order is
// CrossEncoder.rank's, computed here: best first, equal scores in input order, top-k per query.
#include "cli/task_cli_helpers.h"

#include <doctest/doctest.h>

#include <algorithm>
#include <numeric>

using bktest::run_bertkit;
using nlohmann::json;

namespace {

const std::string kModel = bktest::fixture_path("bert-chinese-cross");

// Every document's score against its query, through `similarity`.
std::vector<float> pair_scores(const std::string& query, const std::vector<std::string>& documents) {
  std::string lines;
  for (const auto& d : documents) lines += query + "\t" + d + "\n";
  auto out = bktest::run_jsonl({"similarity", "-m", kModel, "--pairs"}, lines);
  std::vector<float> scores;
  for (const json& line : out) scores.push_back(line.at("score").get<float>());
  REQUIRE(scores.size() == documents.size());
  return scores;
}

std::vector<std::size_t> expected_order(const std::vector<float>& scores, std::size_t top_k) {
  std::vector<std::size_t> order(scores.size());
  std::iota(order.begin(), order.end(), std::size_t{0});
  std::stable_sort(order.begin(), order.end(), [&](std::size_t a, std::size_t b) { return scores[a] > scores[b]; });
  order.resize(std::min(order.size(), top_k));
  return order;
}

struct Query {
  std::string text;
  std::vector<std::string> documents;
};

const std::vector<Query> kQueries = {
    {"How many people live in Berlin?",
     {"Berlin has a population of 3.5 million.", "Berlin is well known for its museums.",
      "The capital of France is Paris.", "Berlin has a population of 3.5 million.", "人口"}},
    {"北京的天气怎么样", {"北京今天晴", "上海下雨", "天气", "北京今天晴"}},
    {"empty", {}},
};

}  // namespace

TEST_CASE("rerank: JSONL lists come back with results sorted as CrossEncoder.rank sorts them") {
  std::string in;
  for (std::size_t q = 0; q < kQueries.size(); ++q)
    in += json{{"id", q}, {"query", kQueries[q].text}, {"documents", kQueries[q].documents}}.dump() + "\n";
  for (std::size_t top_k : {std::size_t{100}, std::size_t{2}}) {
    INFO("top-k " << top_k);
    std::vector<std::string> args{"rerank", "-m", kModel, "--jsonl", "--return-documents"};
    if (top_k != 100) args.insert(args.end(), {"--top-k", std::to_string(top_k)});
    auto lines = bktest::run_jsonl(args, in);
    REQUIRE(lines.size() == kQueries.size());
    for (std::size_t q = 0; q < kQueries.size(); ++q) {
      const json& line = lines[q];
      CHECK(line.at("id") == q);  // the input record echoed, fields in order
      CHECK(line.at("documents") == kQueries[q].documents);
      const json& results = line.at("results");
      if (kQueries[q].documents.empty()) {
        CHECK(results.empty());
        continue;
      }
      const std::vector<float> scores = pair_scores(kQueries[q].text, kQueries[q].documents);
      const std::vector<std::size_t> order = expected_order(scores, top_k);
      REQUIRE(results.size() == order.size());
      for (std::size_t r = 0; r < order.size(); ++r) {
        CHECK(results[r].at("corpus_id") == order[r]);
        CHECK(results[r].at("score").get<float>() == doctest::Approx(scores[order[r]]).epsilon(1e-6));
        CHECK(results[r].at("text") == kQueries[q].documents[order[r]]);
      }
    }
  }
  // The duplicated documents tie exactly: the earlier one first.
  auto lines = bktest::run_jsonl({"rerank", "-m", kModel, "--jsonl"}, in);
  const json& results = lines[0].at("results");
  for (std::size_t r = 0; r < results.size(); ++r)
    if (results[r].at("corpus_id") == 0) {
      REQUIRE(r + 1 < results.size());
      CHECK(results[r + 1].at("corpus_id") == 3);
      CHECK(!results[r].contains("text"));
    }
}

TEST_CASE("rerank: CSV rows are grouped by query and written back sorted, every column kept") {
  bktest::TempDir dir;
  std::string csv = "doc_id,query,document\n";
  int id = 0;
  for (const Query& q : kQueries)
    for (const auto& d : q.documents) csv += std::to_string(id++) + "," + q.text + "," + d + "\n";
  const auto path = (dir / "pairs.csv").string();
  bktest::write_file(path, csv);
  auto r = run_bertkit({"rerank", "-m", kModel, "-i", path, "--format", "csv", "--top-k", "3"});
  REQUIRE_MESSAGE(r.exit_code == 0, r.err);
  // Scores are floats printed shortest-round-trip: compare everything but them line by line.
  std::vector<std::string> got_lines;
  auto split = [](const std::string& s, std::vector<std::string>& out) {
    std::size_t at = 0;
    while (at < s.size()) {
      const auto end = s.find('\n', at);
      out.push_back(s.substr(at, end - at));
      at = end == std::string::npos ? s.size() : end + 1;
    }
  };
  split(r.out, got_lines);
  REQUIRE(got_lines.size() == 1 + 3 + 3);
  CHECK(got_lines[0] == "doc_id,query,document,rank,score,truncated");
  std::size_t line = 1;
  int first_id = 0;
  for (const Query& q : kQueries) {
    if (q.documents.empty()) continue;
    const std::vector<float> scores = pair_scores(q.text, q.documents);
    const std::vector<std::size_t> order = expected_order(scores, 3);
    for (std::size_t k = 0; k < order.size(); ++k, ++line) {
      INFO(got_lines[line]);
      const std::string prefix = std::to_string(first_id + static_cast<int>(order[k])) + "," + q.text + "," +
                                 q.documents[order[k]] + "," + std::to_string(k + 1) + ",";
      REQUIRE(got_lines[line].starts_with(prefix));
      CHECK(std::stof(got_lines[line].substr(prefix.size())) == doctest::Approx(scores[order[k]]).epsilon(1e-6));
      CHECK(got_lines[line].ends_with(",false"));
    }
    first_id += static_cast<int>(q.documents.size());
  }
}

TEST_CASE("rerank: --query ranks the texts given, and refusals name what is wrong") {
  const Query& q = kQueries[0];
  std::vector<std::string> args{"rerank", "-m", kModel, "--query", q.text};
  args.insert(args.end(), q.documents.begin(), q.documents.end());
  auto lines = bktest::run_jsonl(args);
  const std::vector<float> scores = pair_scores(q.text, q.documents);
  const std::vector<std::size_t> order = expected_order(scores, 100);
  REQUIRE(lines.size() == order.size());
  for (std::size_t r = 0; r < order.size(); ++r) {
    CHECK(lines[r].at("text") == q.documents[order[r]]);
    CHECK(lines[r].at("rank") == r + 1);
  }

  auto bi = run_bertkit({"rerank", "-m", bktest::fixture_path("bert-uncased-mlm"), "--query", "q", "d"});
  CHECK(bi.exit_code == 2);
  CHECK(bi.err.starts_with("bertkit: error: rerank needs a cross-encoder"));
  auto no_query = run_bertkit({"rerank", "-m", kModel, "d"});
  CHECK(no_query.exit_code == 2);
  CHECK(no_query.err.starts_with("bertkit: error: rerank needs queries: --query TEXT"));
  auto not_list = run_bertkit({"rerank", "-m", kModel, "--jsonl"}, "{\"query\":\"q\",\"documents\":\"d\"}\n");
  CHECK(not_list.exit_code == 3);
  CHECK(not_list.err == "bertkit: error: <stdin>:1: field \"documents\" must be a list of texts, not string\n");
  auto missing = run_bertkit({"rerank", "-m", kModel, "--jsonl", "--documents-field", "passages"},
                             "{\"query\":\"q\",\"documents\":[\"d\"]}\n");
  CHECK(missing.exit_code == 3);
  CHECK(missing.err.find("no field \"passages\" (fields: query, documents)") != std::string::npos);
}

TEST_CASE("rerank: the rows of one query are one group wherever they are in the input (issue 30)") {
  // Two queries whose rows alternate: each query gets one rank 1, its rows written together, sorted,
  // the groups in the order of each query's first row.
  const Query& a = kQueries[0];
  const Query& b = kQueries[1];
  std::string csv = "query,document\n";
  for (std::size_t k = 0; k < a.documents.size(); ++k) {
    csv += a.text + "," + a.documents[k] + "\n";
    if (k < b.documents.size()) csv += b.text + "," + b.documents[k] + "\n";
  }
  bktest::TempDir dir;
  const auto path = (dir / "pairs.csv").string();
  bktest::write_file(path, csv);
  auto lines = bktest::run_jsonl({"rerank", "-m", kModel, "-i", path});
  REQUIRE(lines.size() == a.documents.size() + b.documents.size());
  std::size_t line = 0;
  for (const Query* q : {&a, &b}) {
    const std::vector<float> scores = pair_scores(q->text, q->documents);
    const std::vector<std::size_t> order = expected_order(scores, 100);
    for (std::size_t r = 0; r < order.size(); ++r, ++line) {
      INFO(lines[line].dump());
      CHECK(lines[line].at("query") == q->text);
      CHECK(lines[line].at("document") == q->documents[order[r]]);
      CHECK(lines[line].at("rank") == r + 1);
      CHECK(lines[line].at("score").get<float>() == doctest::Approx(scores[order[r]]).epsilon(1e-6));
    }
  }
  // Held until the end, rows cannot be resumed: said, not half done.
  auto resume = run_bertkit({"rerank", "-m", kModel, "-i", path, "-o", (dir / "out.jsonl").string(), "--resume"});
  CHECK(resume.exit_code == 2);
  CHECK(resume.err.find("--resume: a query's rows may be anywhere in the input") != std::string::npos);
}

TEST_CASE("rerank --query: each row carries its document's index among the records read (issue 30)") {
  const Query& q = kQueries[0];
  std::vector<std::string> args{"rerank", "-m", kModel, "--query", q.text};
  args.insert(args.end(), q.documents.begin(), q.documents.end());
  auto lines = bktest::run_jsonl(args);
  const std::vector<std::size_t> order = expected_order(pair_scores(q.text, q.documents), 100);
  REQUIRE(lines.size() == order.size());
  for (std::size_t r = 0; r < order.size(); ++r) {
    CHECK(lines[r].at("index") == order[r]);
    CHECK(lines[r].at("text") == q.documents[order[r]]);
    CHECK(lines[r].at("rank") == r + 1);
  }
}

TEST_CASE("rerank lists: a document cut to the model's limit marks its record truncated, as a row is (issue 29)") {
  std::string long_document;
  for (int i = 0; i < 400; ++i) long_document += "Berlin has many museums. ";
  std::string in = json{{"query", "Berlin?"}, {"documents", {"Berlin is big.", long_document}}}.dump() + "\n" +
                   json{{"query", "Berlin?"}, {"documents", {"Berlin is big."}}}.dump() + "\n";
  auto r = run_bertkit({"rerank", "-m", kModel, "--jsonl"}, in);
  INFO(r.err);
  REQUIRE(r.exit_code == 0);
  auto lines = bktest::json_lines(r.out);
  REQUIRE(lines.size() == 2);
  CHECK(lines[0].at("truncated") == true);
  CHECK_FALSE(lines[1].contains("truncated"));
  CHECK(r.err.find("1 record longer than") != std::string::npos);
  // The long document's score is that of its pair cut to the limit, as similarity scores the pair.
  const std::vector<float> scores = pair_scores("Berlin?", {"Berlin is big.", long_document});
  for (const json& result : lines[0].at("results"))
    CHECK(result.at("score").get<float>() == doctest::Approx(scores[result.at("corpus_id").get<std::size_t>()]).epsilon(1e-6));

  auto refused = run_bertkit({"rerank", "-m", kModel, "--jsonl", "--truncate", "error"}, in);
  CHECK(refused.exit_code == 3);
  CHECK(refused.err.starts_with("bertkit: error: <stdin>:1: longer than the model's maximum of"));
}
