// `bertkit ner` end to end: JSONL in and out for every aggregation strategy and with --stride, CSV out
// with the entities as a JSON cell, --offsets bytes, --ignore-labels, and the refusals (a model without a
// token head, --stride without aggregation, an unknown strategy) with exit 2. Expected entities are the
// pipelines_fast goldens of the NER fixtures, loaded at run time.
#include "cli/task_cli_helpers.h"
#include "tokenizer/utf8.h"

#include <doctest/doctest.h>

#include <algorithm>
#include <cmath>
#include <map>

using bktest::run_bertkit;
using nlohmann::json;

namespace {

using bktest::kTolerance;

// The records of one call, as {text: output}.
std::map<std::string, json> records_of(const json& goldens, const std::string& tag, const json& call) {
  std::map<std::string, json> out;
  for (const json& p : goldens.at("pipelines_fast"))
    if (p.at("tag") == tag && p.at("call") == call) out[p.at("input").get<std::string>()] = p.at("output");
  REQUIRE(!out.empty());
  return out;
}

std::string jsonl_texts(const std::map<std::string, json>& records) {
  std::string in;
  for (const auto& [text, output] : records) in += json{{"text", text}}.dump() + "\n";
  return in;
}

void check_entities(const json& got, const json& expected, const char* label_key) {
  REQUIRE(got.size() == expected.size());
  for (std::size_t i = 0; i < got.size(); ++i) {
    INFO("entity " << i << " " << got[i].dump() << " expected " << expected[i].dump());
    CHECK(got[i].at(label_key) == expected[i].at(label_key));
    CHECK(got[i].at("word") == expected[i].at("word"));
    CHECK(got[i].at("start") == expected[i].at("start"));
    CHECK(got[i].at("end") == expected[i].at("end"));
    if (expected[i].contains("index")) CHECK(got[i].at("index") == expected[i].at("index"));
    CHECK(std::abs(got[i].at("score").get<double>() - expected[i].at("score").get<double>()) <= kTolerance);
  }
}

}  // namespace

TEST_CASE("ner: JSONL in and out, every aggregation strategy, as the pipeline") {
  for (const char* name : {"bert-cased-ner", "electra-ner"}) {
    const json goldens = bktest::models2_goldens(name);
    for (const char* strategy : {"none", "simple", "first", "average", "max"}) {
      INFO(name << " " << strategy);
      const auto records = records_of(goldens, "strategy", {{"aggregation_strategy", strategy}});
      const auto lines = bktest::run_jsonl({"ner", "-m", bktest::models2_path(name), "--jsonl", "--aggregation", strategy},
                                           jsonl_texts(records));
      REQUIRE(lines.size() == records.size());
      for (const json& line : lines) {
        INFO(line.at("text"));
        check_entities(line.at("entities"), records.at(line.at("text").get<std::string>()),
                       std::string(strategy) == "none" ? "entity" : "entity_group");
      }
    }
  }
}

TEST_CASE("ner: --stride reads a long text in windows and merges their entities, without, it is truncated") {
  const json goldens = bktest::models2_goldens("bert-cased-ner");
  const json& stride = goldens.at("spec").at("ner").at("strides").back();
  const auto records = records_of(goldens, "stride", {{"aggregation_strategy", "simple"}, {"stride", stride}});
  const auto lines = bktest::run_jsonl({"ner", "-m", bktest::models2_path("bert-cased-ner"), "--jsonl", "--aggregation",
                                        "simple", "--stride", stride.dump()},
                                       jsonl_texts(records));
  REQUIRE(lines.size() == records.size());
  for (const json& line : lines) {
    CHECK_FALSE(line.contains("truncated"));
    check_entities(line.at("entities"), records.at(line.at("text").get<std::string>()), "entity_group");
  }
  const auto cut = bktest::run_jsonl({"ner", "-m", bktest::models2_path("bert-cased-ner"), "--jsonl", "--aggregation", "simple"},
                                     jsonl_texts(records));
  for (const json& line : cut) CHECK(line.value("truncated", false));
}

TEST_CASE("ner: CSV out keeps the input columns and writes the entities as a JSON cell") {
  const json goldens = bktest::models2_goldens("distilbert-uncased-ner");
  const auto records = records_of(goldens, "ignore_labels", {{"aggregation_strategy", "first"}, {"ignore_labels", json::array()}});
  // A text with entities, so that the cell needs quoting.
  const auto record = std::find_if(records.begin(), records.end(), [](const auto& r) { return !r.second.empty(); });
  REQUIRE(record != records.end());
  const std::string& text = record->first;
  bktest::TempDir dir;
  bktest::write_file(dir / "in.csv", "id,text\n7," + bktest::csv_quote(text) + "\n");
  auto r = run_bertkit({"ner", "-m", bktest::models2_path("distilbert-uncased-ner"), "-i", (dir / "in.csv").string(), "--column",
                        "text", "--aggregation", "first", "--ignore-labels", "", "--format", "csv"});
  REQUIRE_MESSAGE(r.exit_code == 0, r.err);
  const std::string header = "id,text,entities,truncated\n";
  REQUIRE(r.out.starts_with(header));
  const std::string row = r.out.substr(header.size());
  const std::string echoed = "7," + bktest::csv_quote(text) + ",";
  REQUIRE(row.starts_with(echoed));
  // The cell is quoted JSON: unquote it (inner quotes doubled) before parsing.
  const std::size_t begin = echoed.size() + 1, end = row.rfind("\",");
  std::string cell = row.substr(begin, end - begin), json_text;
  for (std::size_t i = 0; i < cell.size(); ++i) {
    json_text += cell[i];
    if (cell[i] == '"') ++i;
  }
  check_entities(json::parse(json_text), record->second, "entity_group");
  CHECK(row.ends_with(",false\n"));
}

TEST_CASE("ner: --offsets bytes counts UTF-8 bytes, the default code points") {
  const std::string text = "Zoë Saldaña lives in Köln.";
  const std::string m = bktest::models2_path("bert-cased-ner");
  const auto chars = bktest::run_jsonl({"ner", "-m", m, "--ignore-labels", "", text});
  const auto bytes = bktest::run_jsonl({"ner", "-m", m, "--ignore-labels", "", "--offsets", "bytes", text});
  const json& c = chars.at(0).at("entities");
  const json& b = bytes.at(0).at("entities");
  REQUIRE(c.size() == b.size());
  bool differs = false;
  for (std::size_t i = 0; i < c.size(); ++i) {
    // The byte offset of a code point offset: the UTF-8 length of the text before it.
    auto to_bytes = [&](std::size_t chars_before) {
      std::size_t at = 0;
      for (std::size_t n = 0; n < chars_before; ++n) bertkit::tok::next_code_point(text, at);
      return at;
    };
    CHECK(b[i].at("start").get<std::size_t>() == to_bytes(c[i].at("start").get<std::size_t>()));
    CHECK(b[i].at("end").get<std::size_t>() == to_bytes(c[i].at("end").get<std::size_t>()));
    differs = differs || b[i].at("end") != c[i].at("end");
  }
  CHECK(differs);
}

TEST_CASE("ner: refusals are usage errors (exit 2) with one line") {
  const std::string m = bktest::models2_path("bert-cased-ner");
  auto wrong_head = run_bertkit({"ner", "-m", bktest::fixture_path("bert-cased-cls"), "text"});
  CHECK(wrong_head.exit_code == 2);
  CHECK(wrong_head.err == "bertkit: error: ner needs a token-classification model; BertForSequenceClassification has a "
                          "sequence-classification head\n");
  auto bare = run_bertkit({"ner", "-m", bktest::fixture_path("minilm-embed"), "text"});
  CHECK(bare.exit_code == 2);
  CHECK(bare.err == "bertkit: error: ner needs a token-classification model; BertModel is the encoder alone, with no "
                    "head\n");
  auto stride_none = run_bertkit({"ner", "-m", m, "--stride", "8", "text"});
  CHECK(stride_none.exit_code == 2);
  CHECK(stride_none.err.find("--stride needs an --aggregation") != std::string::npos);
  auto bad = run_bertkit({"ner", "-m", m, "--aggregation", "mean", "text"});
  CHECK(bad.exit_code == 2);
  CHECK(bad.err == "bertkit: error: unknown --aggregation 'mean' (expected none, simple, first, average or max)\n");
  auto too_wide = run_bertkit({"ner", "-m", m, "--aggregation", "first", "--stride", "48", "text"});
  CHECK(too_wide.exit_code == 2);
  CHECK(run_bertkit({"token-classification", "-m", m, "text"}).exit_code == 0);
}

TEST_CASE("ner --compat python: the pipeline's slow-tokenizer records, start and end null, what needs offsets refused") {
  const std::string name = "bert-cased-ner";
  const json goldens = bktest::models2_goldens(name);
  std::size_t checked = 0;
  for (const json& p : goldens.at("pipelines")) {
    if (p.at("init").value("use_fast", true)) continue;
    const std::string strategy = p.at("call").at("aggregation_strategy").get<std::string>();
    INFO(p.at("case") << " " << strategy);
    const auto lines = bktest::run_jsonl({"ner", "-m", bktest::models2_path(name), "--jsonl", "--compat", "python",
                                          "--aggregation", strategy},
                                         json{{"text", p.at("input")}}.dump() + "\n");
    REQUIRE(lines.size() == 1);
    check_entities(lines[0].at("entities"), p.at("output"), strategy == "none" ? "entity" : "entity_group");
    ++checked;
  }
  CHECK(checked > 0);
  const std::string m = bktest::models2_path(name);
  for (const auto& args : {std::vector<std::string>{"--aggregation", "first"}, {"--aggregation", "simple", "--stride", "4"},
                           {"--format", "conll"}, {"--format", "inline"}}) {
    std::vector<std::string> call{"ner", "-m", m, "--compat", "python"};
    call.insert(call.end(), args.begin(), args.end());
    call.push_back("Angela Merkel");
    auto r = run_bertkit(call);
    INFO(args[0] << " " << args[1]);
    CHECK(r.exit_code == 2);
    CHECK(r.err.starts_with("bertkit: error: --compat python (the pipeline's slow-tokenizer path)"));
  }
}
