// The name table: every Hugging Face spelling the issue lists lands on its canonical name.
#include "core/checkpoint/name_map.h"

#include <doctest/doctest.h>

#include <algorithm>

using namespace bertkit::core;

TEST_CASE("name map: Hugging Face names onto canonical names") {
  const std::pair<const char*, const char*> cases[] = {
      {"bert.embeddings.word_embeddings.weight", "embeddings.word_embeddings.weight"},
      {"embeddings.LayerNorm.gamma", "embeddings.LayerNorm.weight"},
      {"bert.encoder.layer.11.output.LayerNorm.beta", "encoder.layer.11.output.LayerNorm.bias"},
      {"electra.embeddings_project.weight", "embeddings_project.weight"},
      {"bert.pooler.dense.bias", "pooler.dense.bias"},
      {"cls.predictions.transform.dense.weight", "mlm.transform.dense.weight"},
      {"cls.predictions.transform.LayerNorm.gamma", "mlm.transform.LayerNorm.weight"},
      {"cls.predictions.decoder.weight", "mlm.decoder.weight"},
      {"cls.predictions.bias", "mlm.decoder.bias"},
      {"cls.predictions.decoder.bias", "mlm.decoder.bias"},
      {"classifier.weight", "classifier.out.weight"},
      {"qa_outputs.bias", "qa_outputs.bias"},
      {"distilbert.transformer.layer.3.attention.q_lin.weight", "encoder.layer.3.attention.self.query.weight"},
      {"distilbert.transformer.layer.0.attention.k_lin.bias", "encoder.layer.0.attention.self.key.bias"},
      {"distilbert.transformer.layer.0.attention.v_lin.weight", "encoder.layer.0.attention.self.value.weight"},
      {"distilbert.transformer.layer.0.attention.out_lin.weight", "encoder.layer.0.attention.output.dense.weight"},
      {"distilbert.transformer.layer.1.sa_layer_norm.weight", "encoder.layer.1.attention.output.LayerNorm.weight"},
      {"distilbert.transformer.layer.1.ffn.lin1.weight", "encoder.layer.1.intermediate.dense.weight"},
      {"distilbert.transformer.layer.1.ffn.lin2.bias", "encoder.layer.1.output.dense.bias"},
      {"distilbert.transformer.layer.1.output_layer_norm.bias", "encoder.layer.1.output.LayerNorm.bias"},
      {"vocab_transform.weight", "mlm.transform.dense.weight"},
      {"vocab_layer_norm.bias", "mlm.transform.LayerNorm.bias"},
      {"vocab_projector.weight", "mlm.decoder.weight"},
      {"vocab_projector.bias", "mlm.decoder.bias"},
      {"pre_classifier.weight", "classifier.dense.weight"},
      {"classifier.dense.bias", "classifier.dense.bias"},
      {"classifier.out_proj.weight", "classifier.out.weight"},
      {"generator_predictions.dense.weight", "mlm.transform.dense.weight"},
      {"generator_predictions.LayerNorm.bias", "mlm.transform.LayerNorm.bias"},
      {"generator_lm_head.bias", "mlm.decoder.bias"},
      {"discriminator_predictions.dense.weight", "discriminator.dense.weight"},
      {"discriminator_predictions.dense_prediction.bias", "discriminator.out.bias"},
  };
  for (const auto& c : cases) {  // not a structured binding: clang 14 cannot capture one in INFO's lambda
    INFO(c.first);
    CHECK(canonical_name(c.first) == std::optional<std::string>(c.second));
  }
  CHECK(canonical_name("bert.embeddings.position_ids") == std::optional<std::string>(""));
  for (const char* unknown : {"cls.seq_relationship.weight", "encoder.layer.x.output.dense.weight",
                              "encoder.layer.0.crossattention.self.query.weight", "bert.embeddings.word_embeddings.gamma",
                              "weight", "lm_head.decoder.weight"})
    CHECK_MESSAGE(!canonical_name(unknown), unknown);
}

TEST_CASE("name map: expected tensors of the heads without a fixture") {
  auto names = [](const ModelConfig& c) {
    std::vector<std::string> out;
    for (const auto& e : expected_tensors(c)) out.push_back(e.name);
    return out;
  };
  auto has = [](const std::vector<std::string>& v, const char* n) { return std::find(v.begin(), v.end(), n) != v.end(); };
  ModelConfig c;
  c.vocab_size = 10, c.hidden_size = 8, c.embedding_size = 4, c.num_layers = 1, c.num_heads = 2, c.intermediate_size = 16;
  c.family = Family::Electra;
  c.head = HeadKind::MaskedLM;
  auto generator = expected_tensors(c);
  auto decoder = std::find_if(generator.begin(), generator.end(), [](const auto& e) { return e.name == "mlm.decoder.weight"; });
  REQUIRE(decoder != generator.end());
  CHECK(decoder->shape == Shape{10, 4});  // tied to the [vocab, embedding_size] word embeddings
  CHECK(has(names(c), "embeddings_project.weight"));
  CHECK(!has(names(c), "pooler.dense.weight"));
  c.head = HeadKind::PreTraining;
  CHECK(has(names(c), "discriminator.out.bias"));
  CHECK(!has(names(c), "mlm.decoder.weight"));
  c.family = Family::Bert;
  c.embedding_size = 8;
  CHECK(has(names(c), "mlm.decoder.bias"));
  CHECK(has(names(c), "pooler.dense.weight"));
  CHECK(!has(names(c), "embeddings_project.weight"));
}
