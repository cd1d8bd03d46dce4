// ModernBERT's heads without a fixture: ModernBertForQuestionAnswering (transformers' class: the
// prediction head, then a Linear named `classifier` onto num_labels = 2 start/end logits) declares
// head.dense/head.norm without biases and the span classifier with its bias, spelled as the checkpoint
// spells them; its logits are the classifier over the prediction head of every token. And a config's
// bias switches add exactly the tensors transformers would create.
#include "core/bench/model_shapes.h"
#include "core/model/name_map.h"
#include "core/model/encoder.h"
#include "core/model/family_spec.h"
#include "core/model/model_tensors.h"
#include "core/model/prediction_head.h"
#include "core/model/qa_head.h"
#include "core/ops/linear.h"

#include <doctest/doctest.h>
#include <nlohmann/json.hpp>

#include <algorithm>
#include <memory>
#include <set>
#include <string>

using namespace bertkit::core;

namespace {

ModelConfig small_modernbert(const std::string& architecture, nlohmann::json extra = nlohmann::json::object()) {
  auto j = nlohmann::json::parse(config_json({"test", 4, 64, 4, 96, "modernbert"}));
  j["architectures"] = {architecture};
  j["vocab_size"] = 300;
  j.update(extra);
  return parse_model_config(j.dump(), "test config");
}

std::set<std::string> names_of(const ModelConfig& config) {
  std::set<std::string> names;
  for (const auto& t : model_tensors(config)) names.insert(t.name);
  return names;
}

}  // namespace

TEST_CASE("modernbert qa: the span classifier is `classifier` [2, hidden] after the bias-free prediction head") {
  const ModelConfig config = small_modernbert("ModernBertForQuestionAnswering");
  REQUIRE(config.head == HeadKind::QuestionAnswering);
  const auto names = names_of(config);
  for (const char* name : {"head.dense.weight", "head.norm.weight", "qa_outputs.weight", "qa_outputs.bias", "final_norm.weight"})
    CHECK(names.count(name) == 1);
  for (const char* name : {"head.dense.bias", "head.norm.bias", "encoder.layer.0.attn_norm.weight",
                           "embeddings.position_embeddings.weight", "encoder.layer.1.attn.Wqkv.bias"})
    CHECK(names.count(name) == 0);
  const FamilySpec& family = *config.family;
  CHECK(checkpoint_spelling(family, architecture_spec(config), "qa_outputs.weight") == "classifier.weight");
  for (const auto& t : model_tensors(config))
    if (t.name == "qa_outputs.weight") CHECK(t.shape == Shape{2, 64});

  // The logits: classifier(head(h)) on every token, start then end.
  auto weights = std::make_shared<const Weights>(random_weights(config, 3));
  Encoder encoder(config, weights);
  const std::vector<std::int32_t> ids = {1, 5, 9, 200, 2};
  const TokenSequence seq{ids, {}};
  EncoderOutput out;
  encoder.forward({&seq, 1}, out);
  QaHead head(config, *weights);
  SpanLogits logits;
  head.forward(out, logits);
  auto prediction = PredictionHead::build(config, *weights);
  REQUIRE(prediction);
  const float* transformed = prediction->forward(out.last().data(), out.tokens());
  const auto w = weights->require("qa_outputs.weight", {2, 64}).f32();
  const auto b = weights->require("qa_outputs.bias", {2}).f32();
  for (std::int64_t t = 0; t < out.tokens(); ++t) {
    double start = b[0], end = b[1];
    for (std::int64_t j = 0; j < 64; ++j) {
      start += double(w[j]) * transformed[t * 64 + j];
      end += double(w[64 + j]) * transformed[t * 64 + j];
    }
    CHECK(logits.start[static_cast<std::size_t>(t)] == doctest::Approx(start).epsilon(1e-5));
    CHECK(logits.end[static_cast<std::size_t>(t)] == doctest::Approx(end).epsilon(1e-5));
  }
}

TEST_CASE("modernbert: attention_bias, mlp_bias, norm_bias and classifier_bias add the biases transformers creates") {
  const auto plain = names_of(small_modernbert("ModernBertForSequenceClassification"));
  CHECK(plain.count("classifier.out.bias") == 1);  // the classifier always has one
  const auto biased = names_of(small_modernbert("ModernBertForSequenceClassification",
                                                {{"attention_bias", true}, {"mlp_bias", true}, {"norm_bias", true},
                                                 {"classifier_bias", true}}));
  for (const char* name : {"encoder.layer.0.attn.Wqkv.bias", "encoder.layer.0.attn.Wo.bias", "encoder.layer.2.mlp.Wi.bias",
                           "encoder.layer.2.mlp.Wo.bias", "encoder.layer.1.attn_norm.bias", "embeddings.LayerNorm.bias",
                           "final_norm.bias", "head.dense.bias", "head.norm.bias"}) {
    INFO(name);
    CHECK(plain.count(name) == 0);
    CHECK(biased.count(name) == 1);
  }
  // decoder_bias false: the MLM decoder has none.
  CHECK(names_of(small_modernbert("ModernBertForMaskedLM")).count("mlm.decoder.bias") == 1);
  CHECK(names_of(small_modernbert("ModernBertForMaskedLM", {{"decoder_bias", false}})).count("mlm.decoder.bias") == 0);
}
