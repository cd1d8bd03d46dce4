// `bertkit classify --pairs` on BERT's next-sentence head end to end: IsNext/NotNext with the softmax of
// the fixtures' recorded logits, --function none for the logits themselves; on BertForPreTraining,
// fill-mask takes the MLM head and classify the next-sentence head (--dry-run names its labels), and
// info lists both.
#include "cli/task_cli_helpers.h"

#include <cmath>

using nlohmann::json;

namespace {

using bktest::kTolerance;

// The fixture's nsp_pairs cases as --pairs lines, with their goldens, run through classify.
void check_nsp_pairs(const std::string& name, const char* logits_key) {
  json g = bktest::models2_goldens(name);
  std::string input;
  std::vector<json> cases;
  for (const json& c : g.at("cases"))
    if (c.at("id").get<std::string>().starts_with("nsp_pairs-")) {
      input += c.at("text").get<std::string>() + "\t" + c.at("text_pair").get<std::string>() + "\n";
      cases.push_back(c);
    }
  REQUIRE(cases.size() >= 6);
  const char* labels[] = {"IsNext", "NotNext"};

  auto scored = bktest::run_jsonl({"classify", "-m", bktest::models2_path(name), "--pairs", "--top-k", "all"}, input);
  auto raw = bktest::run_jsonl({"classify", "-m", bktest::models2_path(name), "--pairs", "--top-k", "all", "--function", "none"}, input);
  REQUIRE(scored.size() == cases.size());
  REQUIRE(raw.size() == cases.size());
  for (std::size_t k = 0; k < cases.size(); ++k) {
    INFO(name << " " << cases[k].at("id").dump());
    const json& probs = cases[k].at("nsp_probs");
    const std::size_t best = probs[0].get<double>() >= probs[1].get<double>() ? 0 : 1;
    CHECK(scored[k].at("text_pair") == cases[k].at("text_pair"));
    CHECK(scored[k].at("label") == labels[best]);
    CHECK(std::abs(scored[k].at("score").get<double>() - probs[best].get<double>()) <= kTolerance);
    CHECK(raw[k].at("label") == labels[best]);
    for (const json& s : raw[k].at("scores")) {
      const std::size_t i = s.at("label") == "IsNext" ? 0 : 1;
      CHECK(std::abs(s.at("score").get<double>() - cases[k].at(logits_key)[i].get<double>()) <= kTolerance);
    }
  }
}

}  // namespace

TEST_CASE("classify: next-sentence prediction (BertForNextSentencePrediction) gives IsNext/NotNext") {
  check_nsp_pairs("bert-uncased-nsp", "logits");
}

TEST_CASE("classify and fill-mask on BertForPreTraining: each its own head, info lists both") {
  check_nsp_pairs("bert-uncased-pretraining", "seq_relationship_logits");
  auto masked = bktest::run_jsonl({"fill-mask", "-m", bktest::models2_path("bert-uncased-pretraining"), "The capital of France is [MASK]."});
  REQUIRE(masked.size() == 1);
  auto info = bktest::run_bertkit({"info", "--json", bktest::models2_path("bert-uncased-pretraining")});
  REQUIRE_MESSAGE(info.exit_code == 0, info.err);
  CHECK(json::parse(info.out).at("heads") == json::array({"masked-lm", "next-sentence-prediction"}));
  auto dry = bktest::run_bertkit({"classify", "-m", bktest::models2_path("bert-uncased-pretraining"), "--dry-run", "x"});
  CHECK(dry.out.find("IsNext, NotNext") != std::string::npos);
  CHECK(dry.out.find("softmax (the model's default)") != std::string::npos);
}

TEST_CASE("classify: a checkpoint with neither a classifier nor a next-sentence head is a usage error") {
  auto r = bktest::run_bertkit({"classify", "-m", bktest::models2_path("bert-cased-ner"), "text"});
  CHECK(r.exit_code == 2);
  CHECK(r.err.starts_with("bertkit: error: classify needs a sequence-classification or next-sentence-prediction model"));
}
