// `bertkit zero-shot` against transformers' zero-shot-classification pipeline: the records of
// fixtures/models3/electra-cls-zero-shot.json (an NLI model of the BERT family; single- and
// multi-label, default and custom hypothesis templates, one label, labels given as one string).
// Labels must come back in the pipeline's order exactly, scores within 1e-4.
#include "cli/task_cli_helpers.h"

#include <doctest/doctest.h>
#include <fmt/format.h>

#include <cmath>
#include <map>
#include <tuple>

using bktest::run_bertkit;
using nlohmann::json;

namespace {

const std::string kGoldens = "fixtures/models3/electra-cls-zero-shot.json";

// The golden's model folder (its `model_dir` names it under shared/).
std::string golden_model(const json& g) {
  std::string dir = g.at("model_dir");
  return bktest::shared(dir.substr(dir.find('/') + 1)).string();
}

// A pipeline call's settings: the candidate labels as the call gave them (a list, or one string),
// multi_label and the template.
struct Call {
  json labels;
  bool multi_label = false;
  std::string hypothesis_template = "This example is {}.";
  bool operator<(const Call& o) const {
    return std::tie(labels, multi_label, hypothesis_template) < std::tie(o.labels, o.multi_label, o.hypothesis_template);
  }
};

Call call_of(const json& pipeline) {
  const json& c = pipeline.at("call");
  Call call{c.at("candidate_labels"), c.value("multi_label", false), c.value("hypothesis_template", "This example is {}.")};
  return call;
}

std::string labels_flag(const json& labels) {
  if (labels.is_string()) return labels.get<std::string>();
  std::string joined;
  for (const json& l : labels) joined += (joined.empty() ? "" : ",") + l.get<std::string>();
  return joined;
}

void check_output(const json& got, const json& expected) {
  CHECK(got.at("labels") == expected.at("labels"));
  REQUIRE(got.at("scores").size() == expected.at("scores").size());
  for (std::size_t k = 0; k < expected.at("scores").size(); ++k)
    CHECK(std::abs(got.at("scores")[k].get<double>() - expected.at("scores")[k].get<double>()) < bktest::kTolerance);
}

// Every zero-shot pipeline record of `g` through `model`, one run per call's settings.
void check_zero_shot_records(const json& g, const std::string& model) {
  std::map<Call, std::vector<const json*>> groups;
  for (const json& p : g.at("pipelines"))
    if (p.at("init").value("task", "zero-shot-classification") == "zero-shot-classification") groups[call_of(p)].push_back(&p);
  REQUIRE(groups.size() >= 6);
  for (const auto& group : groups) {
    const Call& call = group.first;  // not a structured binding: INFO's lambda captures it (clang)
    const std::vector<const json*>& cases = group.second;
    std::string input;
    for (const json* p : cases) input += json{{"text", p->at("input")}}.dump() + "\n";
    std::vector<std::string> args{"zero-shot", "-m", model, "--jsonl", "--labels", labels_flag(call.labels),
                                  "--hypothesis-template", call.hypothesis_template};
    if (call.multi_label) args.push_back("--multi-label");
    INFO(labels_flag(call.labels), " ", call.hypothesis_template, " multi ", call.multi_label);
    const auto rows = bktest::run_jsonl(args, input);
    REQUIRE(rows.size() == cases.size());
    for (std::size_t i = 0; i < cases.size(); ++i) {
      CHECK(rows[i].at("text") == cases[i]->at("input"));
      check_output(rows[i], cases[i]->at("output"));
    }
  }
}

}  // namespace

TEST_CASE("zero-shot: every pipeline record of the BERT-family NLI golden, labels for all (--labels) (issue 32)") {
  const json g = bktest::read_json(bktest::shared(kGoldens));
  check_zero_shot_records(g, golden_model(g));
}

TEST_CASE("zero-shot: every pipeline record of the DeBERTa-v3 NLI golden (spm.model, disentangled attention) (issue 32)") {
  const std::string model = bktest::shared("fixtures/models3/deberta-v3-nli").string();
  check_zero_shot_records(bktest::read_json(bktest::shared("fixtures/models3/deberta-v3-nli/goldens.json")), model);
}

TEST_CASE("zero-shot: each record's own labels from a JSONL field or a CSV column, batched together (issue 32)") {
  const json g = bktest::read_json(bktest::shared(kGoldens));
  const std::string model = golden_model(g);
  bktest::TempDir dir;
  // Records of every single-label call with the default template, mixed in one input: each record
  // fans out to its own number of hypotheses, batched with the others'.
  std::string jsonl, csv = "id,text,candidates\n";
  std::vector<const json*> expected;
  for (const json& p : g.at("pipelines")) {
    const Call call = call_of(p);
    if (call.multi_label || call.hypothesis_template != "This example is {}." || call.labels.is_string()) continue;
    jsonl += json{{"id", expected.size()}, {"text", p.at("input")}, {"candidates", call.labels}}.dump() + "\n";
    csv += fmt::format("{},\"{}\",\"{}\"\n", expected.size(), p.at("input").get<std::string>(), labels_flag(call.labels));
    expected.push_back(&p);
  }
  REQUIRE(expected.size() >= 14);
  bktest::write_file(dir / "in.jsonl", jsonl);
  bktest::write_file(dir / "in.csv", csv);
  for (const std::vector<std::string>& args :
       {std::vector<std::string>{"-i", (dir / "in.jsonl").string(), "--labels-field", "candidates", "--batch-size", "3"},
        std::vector<std::string>{"-i", (dir / "in.csv").string(), "--column", "text", "--labels-column", "candidates",
                                 "--format", "jsonl"}}) {
    const auto rows = bktest::run_jsonl(bktest::with({"zero-shot", "-m", model}, args));
    REQUIRE(rows.size() == expected.size());
    for (std::size_t i = 0; i < expected.size(); ++i) {
      INFO(args[1], " record ", i);
      CHECK(rows[i].at("id") == (args[1].ends_with(".csv") ? json(std::to_string(i)) : json(i)));
      check_output(rows[i], expected[i]->at("output"));
    }
  }
}

TEST_CASE("zero-shot: refusals name what is wrong") {
  const json g = bktest::read_json(bktest::shared(kGoldens));
  const std::string model = golden_model(g);
  auto no_labels = run_bertkit({"zero-shot", "-m", model, "a text"});
  CHECK(no_labels.exit_code == 2);
  CHECK(no_labels.err.find("zero-shot needs the candidate labels") != std::string::npos);
  auto empty = run_bertkit({"zero-shot", "-m", model, "--labels", " , ", "a text"});
  CHECK(empty.exit_code == 2);
  CHECK(empty.err.find("names no label") != std::string::npos);
  auto no_field = run_bertkit({"zero-shot", "-m", model, "--labels", "a", "--hypothesis-template", "About it.", "a text"});
  CHECK(no_field.exit_code == 2);
  CHECK(no_field.err.find("has no {} where the label goes") != std::string::npos);
  // A classifier whose labels are not NLI's.
  auto not_nli = run_bertkit({"zero-shot", "-m", bktest::fixture_path("distilbert-uncased-cls"), "--labels", "a,b", "a text"});
  CHECK(not_nli.exit_code == 2);
  CHECK(not_nli.err.find("none of the labels") != std::string::npos);
  auto missing = run_bertkit({"zero-shot", "-m", model, "--jsonl", "--labels-field", "topics"}, "{\"text\":\"t\"}\n");
  CHECK(missing.exit_code == 3);
  CHECK(missing.err.find("<stdin>:1: no field \"topics\"") != std::string::npos);
  auto not_list = run_bertkit({"zero-shot", "-m", model, "--jsonl", "--labels-field", "topics"}, "{\"text\":\"t\",\"topics\":3}\n");
  CHECK(not_list.exit_code == 3);
  CHECK(not_list.err.find("must be a list of labels") != std::string::npos);
}
