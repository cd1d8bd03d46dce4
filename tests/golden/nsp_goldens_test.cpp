// classify on BERT's next-sentence head (BertForNextSentencePrediction, and BertForPreTraining beside
// its MLM head): every case of the NSP fixtures of models2, logits within 1e-4 of the model's recorded
// ones (transformers has no next-sentence pipeline) and the default scores (softmax) of nsp_probs.
#include "cli/choice_flags.h"
#include "commands/classify.h"
#include "golden/pipeline_fixtures.h"
#include "support.h"

#include <doctest/doctest.h>

#include <cmath>

using namespace bertkit;
using nlohmann::json;

namespace {

using bktest::kTolerance;

// The logits key: BertForPreTraining returns them as seq_relationship_logits beside prediction_logits.
void check_nsp_fixture(const std::string& name, const char* logits_key) {
  bktest::Fixture f = bktest::load_fixture(name, "models2");
  auto tokenizer = bktest::fixture_tokenizer(f, "python");
  cmd::Classifier classifier(f.model.config, f.weights);
  REQUIRE(classifier.labels() == std::vector<std::string>{"IsNext", "NotNext"});
  const core::ScoreFunction function = cli::parse_score_function("auto", classifier.config());
  CHECK(function == core::ScoreFunction::Softmax);

  tok::EncodeOptions options;  // the goldens' truncation=True, max_length = encode.max_length
  options.truncation = tok::TruncationParams{f.goldens.at("encode").at("max_length").get<std::size_t>(),
                                             tok::TruncationStrategy::LongestFirst, 0, tok::Side::Right};
  std::size_t pairs = 0;
  for (const json& c : f.goldens.at("cases")) {
    INFO(name << " case " << c.at("id").dump());
    std::optional<std::string> pair;
    if (c.contains("text_pair") && !c.at("text_pair").is_null()) pair = c.at("text_pair").get<std::string>();
    std::vector<tok::Encoding> encodings;
    encodings.push_back(tokenizer->encode(c.at("text").get<std::string>(),
                                          pair ? std::optional<std::string_view>(*pair) : std::nullopt, options));
    REQUIRE(encodings[0].ids == c.at("input_ids").get<std::vector<std::int32_t>>());
    std::vector<float> logits = classifier.logits(encodings, {});
    const json& expected = c.at(logits_key);
    REQUIRE(logits.size() == 2);
    for (std::size_t i = 0; i < 2; ++i) CHECK(std::abs(logits[i] - expected[i].get<double>()) <= kTolerance);
    for (const cmd::LabelScore& s : cmd::rank_labels(logits, function))
      CHECK(std::abs(s.score - c.at("nsp_probs")[s.label].get<double>()) <= kTolerance);
    pairs += pair.has_value();
  }
  CHECK(pairs >= 6);
}

}  // namespace

TEST_CASE("nsp: BertForNextSentencePrediction logits and softmax of every case") {
  check_nsp_fixture("bert-uncased-nsp", "logits");
}

TEST_CASE("nsp: BertForPreTraining's next-sentence logits and softmax of every case") {
  check_nsp_fixture("bert-uncased-pretraining", "seq_relationship_logits");
}
