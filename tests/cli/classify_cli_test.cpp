// `bertkit classify` end to end: CSV in and out with every input column echoed byte for byte (quotes,
// commas, embedded newlines, a BOM), JSONL pairs, TSV, --pairs lines for a cross-encoder, --top-k and
// --function, and bad input with exit codes, file and line. Expected labels and scores are the
// pipeline goldens of the fixtures, loaded at run time.
#include "cli/task_cli_helpers.h"

#include <doctest/doctest.h>
#include <fmt/format.h>

#include <algorithm>
#include <cmath>

using bktest::run_bertkit;
using nlohmann::json;

namespace {

using bktest::kTolerance;

struct Expected {
  std::string text;
  std::optional<std::string> pair;
  json ranked;  // every label, best first
};

// The fixture's pipeline records with every label (top_k=None, default function) that the default fast
// tokenizer encodes like the slow one the goldens were made with.
std::vector<Expected> expected_rankings(const std::string& fixture, bool pairs) {
  json g = bktest::fixture_goldens(fixture);
  const json& differing = g.at("fast_tokenizer").at("cases_differing_from_slow");
  std::vector<Expected> out;
  for (const json& p : g.at("pipelines")) {
    const json& call = p.at("call");
    if (!call.contains("top_k") || !call.at("top_k").is_null() || call.contains("function_to_apply")) continue;
    if (std::find(differing.begin(), differing.end(), p.at("case")) != differing.end()) continue;
    const json& in = p.at("input");
    if (in.is_object() != pairs) continue;
    Expected e;
    e.text = in.is_string() ? in.get<std::string>() : in.at("text").get<std::string>();
    if (pairs) e.pair = in.at("text_pair").get<std::string>();
    e.ranked = p.at("output");
    out.push_back(std::move(e));
  }
  REQUIRE(!out.empty());
  return out;
}

void check_best(const std::string& label, double score, const json& ranked) {
  CHECK(label == ranked[0].at("label").get<std::string>());
  CHECK(std::abs(score - ranked[0].at("score").get<double>()) <= kTolerance);
}

}  // namespace

TEST_CASE("classify: CSV round trip keeps every input column byte for byte and adds label, score") {
  auto cases = expected_rankings("bert-cased-cls", false);
  bktest::TempDir dir;
  // Each row: an id, the text (quoted: it may hold commas, quotes, tabs, newlines), a note that needs
  // quoting, and an unquoted empty field.
  std::string csv = "\xEF\xBB\xBFid,text,note,empty\n";
  std::vector<std::string> rows;
  for (std::size_t i = 0; i < cases.size(); ++i) {
    rows.push_back(fmt::format("{},{},\"note \"\"{}\"\", with a comma\",", i, bktest::csv_quote(cases[i].text), i));
    csv += rows.back() + (i % 2 ? "\r\n" : "\n");
  }
  bktest::write_file(dir / "reviews.csv", csv);
  auto r = run_bertkit({"classify", "-m", bktest::fixture_path("bert-cased-cls"), "-i", (dir / "reviews.csv").string(),
                        "--column", "text", "-o", (dir / "scored.csv").string()});
  REQUIRE_MESSAGE(r.exit_code == 0, r.err);
  CHECK(r.out.empty());
  std::string out = bktest::read_file(dir / "scored.csv");
  const std::string header = "id,text,note,empty,label,score,truncated\n";
  std::size_t at = out.find(header);
  REQUIRE(at != std::string::npos);
  CHECK(at <= 3);  // after the BOM, if it is kept
  at += header.size();
  for (std::size_t i = 0; i < rows.size(); ++i) {
    INFO("row " << i);
    REQUIRE(out.compare(at, rows[i].size(), rows[i]) == 0);
    at += rows[i].size();
    std::size_t nl = out.find('\n', at);
    REQUIRE(nl != std::string::npos);
    std::string rest = out.substr(at, nl - at);  // ",label,score,truncated"
    at = nl + 1;
    REQUIRE(rest.size() > 1);
    REQUIRE(rest[0] == ',');
    auto c1 = rest.find(',', 1), c2 = rest.find(',', c1 + 1);
    REQUIRE(c2 != std::string::npos);
    check_best(rest.substr(1, c1 - 1), std::stod(rest.substr(c1 + 1, c2 - c1 - 1)), cases[i].ranked);
    CHECK(rest.substr(c2 + 1) == "false");
  }
  CHECK(at == out.size());
}

TEST_CASE("classify: JSONL pairs echo the record and give the pipeline's labels, TSV output") {
  auto cases = expected_rankings("electra-cls", true);
  bktest::TempDir dir;
  std::string jsonl;
  for (const auto& c : cases) jsonl += json{{"id", jsonl.size()}, {"premise", c.text}, {"hypothesis", *c.pair}}.dump() + "\n";
  bktest::write_file(dir / "nli.jsonl", jsonl);
  auto r = run_bertkit({"classify", "-m", bktest::fixture_path("electra-cls"), "-i", (dir / "nli.jsonl").string(),
                        "--field", "premise", "--pair-field", "hypothesis", "--top-k", "all"});
  REQUIRE_MESSAGE(r.exit_code == 0, r.err);
  auto recs = bktest::json_lines(r.out);
  REQUIRE(recs.size() == cases.size());
  for (std::size_t i = 0; i < cases.size(); ++i) {
    INFO("record " << i);
    CHECK(recs[i].at("premise") == cases[i].text);
    CHECK(recs[i].at("hypothesis") == *cases[i].pair);
    CHECK(recs[i].contains("id"));
    check_best(recs[i].at("label").get<std::string>(), recs[i].at("score").get<double>(), cases[i].ranked);
    const json& scores = recs[i].at("scores");
    REQUIRE(scores.size() == cases[i].ranked.size());
    for (std::size_t k = 0; k < scores.size(); ++k) {
      CHECK(scores[k].at("label") == cases[i].ranked[k].at("label"));
      CHECK(std::abs(scores[k].at("score").get<double>() - cases[i].ranked[k].at("score").get<double>()) <= kTolerance);
    }
  }

  auto tsv = run_bertkit({"classify", "-m", bktest::fixture_path("electra-cls"), "-i", (dir / "nli.jsonl").string(),
                          "--field", "premise", "--pair-field", "hypothesis", "--format", "tsv"});
  REQUIRE_MESSAGE(tsv.exit_code == 0, tsv.err);
  auto lines = bktest::split_lines(tsv.out);
  REQUIRE(lines.size() == cases.size() + 1);
  CHECK(lines[0] == "hypothesis\tid\tpremise\tlabel\tscore\ttruncated");  // the input's members, in order
}

TEST_CASE("classify: cross-encoder pairs on stdin (--pairs), sigmoid relevance, --function none gives logits") {
  auto cases = expected_rankings("bert-chinese-cross", true);
  std::string input;
  std::vector<std::size_t> used;
  for (std::size_t i = 0; i < cases.size(); ++i) {
    // Lines cannot hold a tab or a newline inside a text.
    if (cases[i].text.find_first_of("\t\n\r") != std::string::npos || cases[i].pair->find_first_of("\t\n\r") != std::string::npos)
      continue;
    input += cases[i].text + "\t" + *cases[i].pair + "\n";
    used.push_back(i);
  }
  REQUIRE(!used.empty());
  auto r = run_bertkit({"classify", "-m", bktest::fixture_path("bert-chinese-cross"), "--pairs"}, input);
  REQUIRE_MESSAGE(r.exit_code == 0, r.err);
  auto recs = bktest::json_lines(r.out);
  REQUIRE(recs.size() == used.size());
  for (std::size_t k = 0; k < used.size(); ++k) {
    const Expected& c = cases[used[k]];
    CHECK(recs[k].at("text") == c.text);
    CHECK(recs[k].at("text_pair") == *c.pair);
    check_best(recs[k].at("label").get<std::string>(), recs[k].at("score").get<double>(), c.ranked);
    CHECK(recs[k].at("score").get<double>() > 0);
    CHECK(recs[k].at("score").get<double>() < 1);
  }

  // --function none: the goldens' raw-logit calls.
  json g = bktest::fixture_goldens("bert-cased-cls");
  std::size_t checked = 0;
  for (const json& p : g.at("pipelines")) {
    if (p.at("call").value("function_to_apply", "") != "none" || !p.at("input").is_string()) continue;
    auto n = run_bertkit({"classify", "-m", bktest::fixture_path("bert-cased-cls"), "--function", "none", "--top-k", "2",
                          p.at("input").get<std::string>()});
    REQUIRE_MESSAGE(n.exit_code == 0, n.err);
    json rec = json::parse(n.out);
    check_best(rec.at("label").get<std::string>(), rec.at("score").get<double>(), p.at("output"));
    CHECK(rec.at("scores").size() == 2);
    ++checked;
  }
  CHECK(checked > 0);
}

TEST_CASE("classify: bad input names file and line, --on-error skip goes on, usage errors exit 2") {
  bktest::TempDir dir;
  const std::string model = bktest::fixture_path("distilbert-uncased-cls");
  bktest::write_file(dir / "in.jsonl", "{\"text\": \"good one\"}\n{\"text\": 42}\n{\"text\": \"good two\"}\n");
  auto fail = run_bertkit({"classify", "-m", model, "-i", (dir / "in.jsonl").string(), "-o", (dir / "out.jsonl").string()});
  CHECK(fail.exit_code == 3);
  CHECK(fail.err.find("in.jsonl:2") != std::string::npos);
  // What was finished before the bad record is kept.
  auto kept = bktest::json_lines(bktest::read_file(dir / "out.jsonl"));
  REQUIRE(kept.size() == 1);
  CHECK(kept[0].at("text") == "good one");

  auto skip = run_bertkit({"classify", "-m", model, "-i", (dir / "in.jsonl").string(), "--on-error", "skip"});
  CHECK(skip.exit_code == 0);
  CHECK(skip.err.find("in.jsonl:2") != std::string::npos);
  auto recs = bktest::json_lines(skip.out);
  REQUIRE(recs.size() == 3);
  CHECK(recs[1].at("text") == 42);
  CHECK(recs[1].contains("error"));
  CHECK(recs[2].at("text") == "good two");

  // A missing column is found before any output file exists.
  bktest::write_file(dir / "t.csv", "a,b\n1,2\n");
  auto column = run_bertkit({"classify", "-m", model, "-i", (dir / "t.csv").string(), "--column", "text", "-o",
                             (dir / "never.csv").string()});
  CHECK(column.exit_code != 0);
  CHECK(column.err.find("text") != std::string::npos);
  CHECK(!std::filesystem::exists(dir / "never.csv"));

  CHECK(run_bertkit({"classify", "-m", model, "--top-k", "0", "x"}).exit_code == 2);
  CHECK(run_bertkit({"classify", "-m", model, "--function", "tanh", "x"}).exit_code == 2);
  auto mlm = run_bertkit({"classify", "-m", bktest::fixture_path("bert-uncased-mlm"), "x"});
  CHECK(mlm.exit_code == 2);
  CHECK(mlm.err.find("classification") != std::string::npos);

  auto dry = run_bertkit({"classify", "-m", model, "--dry-run", "--top-k", "all"});
  CHECK(dry.exit_code == 0);
  CHECK(dry.out.find("softmax") != std::string::npos);
  CHECK(dry.out.find("every label") != std::string::npos);
}

TEST_CASE("classify: long texts are truncated and marked") {
  const std::string model = bktest::fixture_path("distilbert-uncased-cls");
  std::string longer;
  for (int i = 0; i < 40; ++i) longer += "word ";
  auto r = run_bertkit({"classify", "-m", model, "--max-length", "16", "short", longer});
  REQUIRE_MESSAGE(r.exit_code == 0, r.err);
  auto recs = bktest::json_lines(r.out);
  REQUIRE(recs.size() == 2);
  CHECK(!recs[0].contains("truncated"));
  CHECK(recs[1].at("truncated") == true);
  CHECK(r.err.find("truncated") != std::string::npos);
  auto refuse = run_bertkit({"classify", "-m", model, "--max-length", "16", "--truncate", "error", longer});
  CHECK(refuse.exit_code == 3);
  CHECK(refuse.err.find("<argument>:1") != std::string::npos);
}

TEST_CASE("classify: a RoBERTa folder with no tokenizer limit truncates to the positions after the offset") {
  // max_position_embeddings 514 with pad_token_id 1: positions 2..513 give 512 tokens. The folder
  // has no tokenizer_config.json, so the limit comes from config.json alone.
  const auto folder = bktest::shared("fixtures/models2/roberta-cls");
  REQUIRE(!std::filesystem::exists(folder / "tokenizer_config.json"));
  std::string longer;
  for (int i = 0; i < 600; ++i) longer += "word ";
  auto r = run_bertkit({"classify", "-m", folder.string(), longer});
  REQUIRE_MESSAGE(r.exit_code == 0, r.err);
  CHECK(bktest::json_lines(r.out).at(0).at("truncated") == true);
  CHECK(r.err.find("longer than 512 tokens truncated") != std::string::npos);
  r = run_bertkit({"classify", "-m", folder.string(), "--max-length", "513", "hi"});
  CHECK(r.exit_code == 2);
  CHECK(r.err.find("--max-length 513 is more than this model takes (512 tokens") != std::string::npos);
}
