// The name table: every Hugging Face spelling the issue lists lands on its canonical name.
#include "core/model/name_map.h"
#include "core/model/model_tensors.h"
#include "core/model/family_spec.h"
#include "core/bench/model_shapes.h"

#include <doctest/doctest.h>

#include <algorithm>

using namespace bertkit::core;

TEST_CASE("name map: Hugging Face names onto canonical names") {
  struct Case {
    const char* model_type;
    const char* name;
    const char* canonical;
  };
  const Case cases[] = {
      {"bert", "bert.embeddings.word_embeddings.weight", "embeddings.word_embeddings.weight"},
      {"bert", "embeddings.LayerNorm.gamma", "embeddings.LayerNorm.weight"},
      {"bert", "bert.encoder.layer.11.output.LayerNorm.beta", "encoder.layer.11.output.LayerNorm.bias"},
      {"electra", "electra.embeddings_project.weight", "embeddings_project.weight"},
      {"bert", "bert.pooler.dense.bias", "pooler.dense.bias"},
      {"bert", "cls.predictions.transform.dense.weight", "mlm.transform.dense.weight"},
      {"bert", "cls.predictions.transform.LayerNorm.gamma", "mlm.transform.LayerNorm.weight"},
      {"bert", "cls.predictions.decoder.weight", "mlm.decoder.weight"},
      {"bert", "cls.predictions.bias", "mlm.decoder.bias"},
      {"bert", "cls.predictions.decoder.bias", "mlm.decoder.bias"},
      {"bert", "classifier.weight", "classifier.out.weight"},
      {"bert", "qa_outputs.bias", "qa_outputs.bias"},
      {"distilbert", "distilbert.transformer.layer.3.attention.q_lin.weight", "encoder.layer.3.attention.self.query.weight"},
      {"distilbert", "distilbert.transformer.layer.0.attention.k_lin.bias", "encoder.layer.0.attention.self.key.bias"},
      {"distilbert", "distilbert.transformer.layer.0.attention.v_lin.weight", "encoder.layer.0.attention.self.value.weight"},
      {"distilbert", "distilbert.transformer.layer.0.attention.out_lin.weight", "encoder.layer.0.attention.output.dense.weight"},
      {"distilbert", "distilbert.transformer.layer.1.sa_layer_norm.weight", "encoder.layer.1.attention.output.LayerNorm.weight"},
      {"distilbert", "distilbert.transformer.layer.1.ffn.lin1.weight", "encoder.layer.1.intermediate.dense.weight"},
      {"distilbert", "distilbert.transformer.layer.1.ffn.lin2.bias", "encoder.layer.1.output.dense.bias"},
      {"distilbert", "distilbert.transformer.layer.1.output_layer_norm.bias", "encoder.layer.1.output.LayerNorm.bias"},
      {"distilbert", "vocab_transform.weight", "mlm.transform.dense.weight"},
      {"distilbert", "vocab_layer_norm.bias", "mlm.transform.LayerNorm.bias"},
      {"distilbert", "vocab_projector.weight", "mlm.decoder.weight"},
      {"distilbert", "vocab_projector.bias", "mlm.decoder.bias"},
      {"distilbert", "pre_classifier.weight", "classifier.dense.weight"},
      {"electra", "classifier.dense.bias", "classifier.dense.bias"},
      {"electra", "classifier.out_proj.weight", "classifier.out.weight"},
      {"electra", "generator_predictions.dense.weight", "mlm.transform.dense.weight"},
      {"electra", "generator_predictions.LayerNorm.bias", "mlm.transform.LayerNorm.bias"},
      {"electra", "generator_lm_head.bias", "mlm.decoder.bias"},
      {"electra", "discriminator_predictions.dense.weight", "discriminator.dense.weight"},
      {"electra", "discriminator_predictions.dense_prediction.bias", "discriminator.out.bias"},
      // Token classification: one Linear named classifier in every family; BERT's next-sentence head.
      {"bert", "classifier.weight", "classifier.out.weight"},
      {"distilbert", "classifier.bias", "classifier.out.bias"},
      {"electra", "classifier.weight", "classifier.out.weight"},
      {"bert", "cls.seq_relationship.weight", "nsp.weight"},
      // RoBERTa, and XLM-RoBERTa and CamemBERT under the same names (prefix roberta.).
      {"roberta", "roberta.embeddings.token_type_embeddings.weight", "embeddings.token_type_embeddings.weight"},
      {"roberta", "roberta.encoder.layer.1.attention.self.query.bias", "encoder.layer.1.attention.self.query.bias"},
      {"roberta", "roberta.pooler.dense.weight", "pooler.dense.weight"},
      {"roberta", "lm_head.dense.weight", "mlm.transform.dense.weight"},
      {"roberta", "lm_head.layer_norm.bias", "mlm.transform.LayerNorm.bias"},
      {"roberta", "lm_head.bias", "mlm.decoder.bias"},
      {"roberta", "lm_head.decoder.bias", "mlm.decoder.bias"},
      {"roberta", "lm_head.decoder.weight", "mlm.decoder.weight"},
      {"roberta", "classifier.dense.weight", "classifier.dense.weight"},
      {"roberta", "classifier.out_proj.bias", "classifier.out.bias"},
      {"roberta", "classifier.weight", "classifier.out.weight"},
      {"roberta", "qa_outputs.weight", "qa_outputs.weight"},
      {"xlm-roberta", "roberta.encoder.layer.0.output.LayerNorm.weight", "encoder.layer.0.output.LayerNorm.weight"},
      {"xlm-roberta", "lm_head.bias", "mlm.decoder.bias"},
      {"camembert", "roberta.embeddings.word_embeddings.weight", "embeddings.word_embeddings.weight"},
      {"camembert", "classifier.out_proj.weight", "classifier.out.weight"},
      // MPNet: its own layer names, RoBERTa's heads, the relative position bias of the encoder.
      {"mpnet", "mpnet.encoder.layer.3.attention.attn.q.weight", "encoder.layer.3.attention.self.query.weight"},
      {"mpnet", "mpnet.encoder.layer.0.attention.attn.k.bias", "encoder.layer.0.attention.self.key.bias"},
      {"mpnet", "encoder.layer.0.attention.attn.v.weight", "encoder.layer.0.attention.self.value.weight"},
      {"mpnet", "encoder.layer.0.attention.attn.o.bias", "encoder.layer.0.attention.output.dense.bias"},
      {"mpnet", "encoder.layer.1.attention.LayerNorm.weight", "encoder.layer.1.attention.output.LayerNorm.weight"},
      {"mpnet", "encoder.layer.1.intermediate.dense.weight", "encoder.layer.1.intermediate.dense.weight"},
      {"mpnet", "encoder.layer.1.output.LayerNorm.bias", "encoder.layer.1.output.LayerNorm.bias"},
      {"mpnet", "mpnet.encoder.relative_attention_bias.weight", "encoder.relative_attention_bias.weight"},
      {"mpnet", "mpnet.embeddings.position_embeddings.weight", "embeddings.position_embeddings.weight"},
      {"mpnet", "lm_head.bias", "mlm.decoder.bias"},
      {"mpnet", "lm_head.layer_norm.weight", "mlm.transform.LayerNorm.weight"},
      {"mpnet", "classifier.out_proj.weight", "classifier.out.weight"},
      {"mpnet", "classifier.weight", "classifier.out.weight"},
      {"mpnet", "qa_outputs.bias", "qa_outputs.bias"},
      // ModernBERT: task models prefix model., a sentence-transformers folder does not; the recipe's
      // own layer names; a final norm; one prediction head (head.*) before the classifier.
      {"modernbert", "model.embeddings.tok_embeddings.weight", "embeddings.word_embeddings.weight"},
      {"modernbert", "embeddings.norm.weight", "embeddings.LayerNorm.weight"},
      {"modernbert", "model.layers.0.attn.Wqkv.weight", "encoder.layer.0.attn.Wqkv.weight"},
      {"modernbert", "layers.21.attn.Wo.weight", "encoder.layer.21.attn.Wo.weight"},
      {"modernbert", "model.layers.1.attn_norm.weight", "encoder.layer.1.attn_norm.weight"},
      {"modernbert", "model.layers.1.mlp_norm.weight", "encoder.layer.1.mlp_norm.weight"},
      {"modernbert", "model.layers.2.mlp.Wi.weight", "encoder.layer.2.mlp.Wi.weight"},
      {"modernbert", "model.layers.2.mlp.Wo.weight", "encoder.layer.2.mlp.Wo.weight"},
      {"modernbert", "model.final_norm.weight", "final_norm.weight"},
      {"modernbert", "head.dense.weight", "head.dense.weight"},
      {"modernbert", "head.norm.weight", "head.norm.weight"},
      {"modernbert", "classifier.bias", "classifier.out.bias"},
      {"modernbert", "decoder.bias", "mlm.decoder.bias"},
      {"deberta-v2", "deberta.embeddings.word_embeddings.weight", "embeddings.word_embeddings.weight"},
      {"deberta-v2", "deberta.embeddings.embed_proj.weight", "embeddings_project.weight"},
      {"deberta-v2", "deberta.encoder.rel_embeddings.weight", "encoder.rel_embeddings.weight"},
      {"deberta-v2", "deberta.encoder.LayerNorm.bias", "encoder.LayerNorm.bias"},
      {"deberta-v2", "deberta.encoder.layer.3.attention.self.query_proj.weight", "encoder.layer.3.attention.self.query.weight"},
      {"deberta-v2", "deberta.encoder.layer.3.attention.self.key_proj.bias", "encoder.layer.3.attention.self.key.bias"},
      {"deberta-v2", "deberta.encoder.layer.3.attention.self.value_proj.weight", "encoder.layer.3.attention.self.value.weight"},
      {"deberta-v2", "deberta.encoder.layer.0.attention.self.pos_key_proj.weight", "encoder.layer.0.attention.self.pos_key_proj.weight"},
      {"deberta-v2", "deberta.encoder.layer.0.output.LayerNorm.weight", "encoder.layer.0.output.LayerNorm.weight"},
      {"deberta-v2", "pooler.dense.weight", "classifier.dense.weight"},
      {"deberta-v2", "classifier.bias", "classifier.out.bias"},
      {"deberta-v2", "cls.predictions.bias", "mlm.decoder.bias"},
      {"deberta-v2", "cls.predictions.transform.LayerNorm.weight", "mlm.transform.LayerNorm.weight"},
  };
  for (const auto& c : cases) {
    INFO(c.model_type, " ", c.name);
    REQUIRE(find_family(c.model_type));
    CHECK(canonical_name(*find_family(c.model_type), c.name) == std::optional<std::string>(c.canonical));
  }
  CHECK(canonical_name(*find_family("bert"), "bert.embeddings.position_ids") == std::optional<std::string>(""));
  // ModernBERT's MLM head reads head.* as its transform; its span classifier is called classifier.
  const FamilySpec& modernbert = *find_family("modernbert");
  const ArchitectureSpec& mlm = *modernbert.architecture("ModernBertForMaskedLM");
  CHECK(canonical_name(modernbert, mlm, "head.dense.weight") == std::optional<std::string>("mlm.transform.dense.weight"));
  CHECK(canonical_name(modernbert, mlm, "head.norm.weight") == std::optional<std::string>("mlm.transform.LayerNorm.weight"));
  const ArchitectureSpec& qa = *modernbert.architecture("ModernBertForQuestionAnswering");
  CHECK(canonical_name(modernbert, qa, "classifier.weight") == std::optional<std::string>("qa_outputs.weight"));
  CHECK(!canonical_name(modernbert, "model.embeddings.position_embeddings.weight"));
  CHECK(!canonical_name(*find_family("mpnet"), "mpnet.embeddings.token_type_embeddings.weight"));
  CHECK(!canonical_name(*find_family("roberta"), "roberta.encoder.relative_attention_bias.weight"));
  for (const FamilySpec* family : families())
    for (const char* unknown : {"cls.seq_relationship.extra.weight", "encoder.layer.x.output.dense.weight",
                                "encoder.layer.0.crossattention.self.query.weight",
                                "bert.embeddings.word_embeddings.gamma", "weight", "lm_head.extra.weight"})
      CHECK_MESSAGE(!canonical_name(*family, unknown), family->model_type, " ", unknown);
  for (const char* model_type : {"bert", "distilbert", "electra"})
    CHECK(!canonical_name(*find_family(model_type), "lm_head.decoder.weight"));
}

TEST_CASE("name map: expected tensors of the heads without a fixture") {
  auto names = [](const ModelConfig& c) {
    std::vector<std::string> out;
    for (const auto& e : model_tensors(c)) out.push_back(e.name);
    return out;
  };
  auto has = [](const std::vector<std::string>& v, const char* n) { return std::find(v.begin(), v.end(), n) != v.end(); };
  ModelConfig c;
  c.vocab_size = 10, c.hidden_size = 8, c.embedding_size = 4, c.num_layers = 1, c.num_heads = 2, c.intermediate_size = 16;
  c.family = find_family("electra");
  c.head = HeadKind::MaskedLM;
  auto generator = model_tensors(c);
  auto decoder = std::find_if(generator.begin(), generator.end(), [](const auto& e) { return e.name == "mlm.decoder.weight"; });
  REQUIRE(decoder != generator.end());
  CHECK(decoder->shape == Shape{10, 4});  // tied to the [vocab, embedding_size] word embeddings
  CHECK(has(names(c), "embeddings_project.weight"));
  CHECK(!has(names(c), "pooler.dense.weight"));
  c.head = HeadKind::PreTraining;
  CHECK(has(names(c), "discriminator.out.bias"));
  CHECK(!has(names(c), "mlm.decoder.weight"));
  c.family = find_family("bert");
  c.embedding_size = 8;
  CHECK(has(names(c), "mlm.decoder.bias"));
  CHECK(has(names(c), "pooler.dense.weight"));
  CHECK(!has(names(c), "embeddings_project.weight"));
  CHECK(has(names(c), "nsp.weight"));  // BertForPreTraining carries the next-sentence head
  c.head = HeadKind::NextSentencePrediction;
  CHECK(has(names(c), "nsp.bias"));
  CHECK(has(names(c), "pooler.dense.weight"));
  CHECK(!has(names(c), "mlm.decoder.weight"));
  c.head = HeadKind::TokenClassification;
  c.num_labels = 3;
  auto tokens = model_tensors(c);
  auto out = std::find_if(tokens.begin(), tokens.end(), [](const auto& e) { return e.name == "classifier.out.weight"; });
  REQUIRE(out != tokens.end());
  CHECK(out->shape == Shape{3, 8});
  CHECK(!has(names(c), "pooler.dense.weight"));
  CHECK(!has(names(c), "nsp.weight"));
}

TEST_CASE("name map: an architecture's own rows: one checkpoint name, different tensors per architecture") {
  const FamilySpec& roberta = *find_family("roberta");
  const ArchitectureSpec& tokens = *roberta.architecture("RobertaForTokenClassification");
  const ArchitectureSpec& sequences = *roberta.architecture("RobertaForSequenceClassification");
  CHECK(canonical_name(roberta, tokens, "classifier.weight") == std::optional<std::string>("classifier.out.weight"));
  CHECK(!canonical_name(roberta, sequences, "classifier.weight"));  // its classifier is dense + out_proj
  CHECK(canonical_name(roberta, sequences, "classifier.out_proj.bias") == std::optional<std::string>("classifier.out.bias"));
  // Messages spell a tensor as the architecture's checkpoint does.
  CHECK(checkpoint_spelling(roberta, tokens, "classifier.out.weight") == "classifier.weight");
  CHECK(checkpoint_spelling(roberta, sequences, "classifier.out.weight") == "classifier.out_proj.weight");
  const FamilySpec& bert = *find_family("bert");
  const ArchitectureSpec& mlm = *bert.architecture("BertForMaskedLM");
  CHECK(checkpoint_spelling(bert, mlm, "mlm.decoder.bias") == "cls.predictions.bias");
  CHECK(checkpoint_spelling(bert, mlm, "mlm.decoder.weight") == "cls.predictions.decoder.weight");
  CHECK(!canonical_name(bert, mlm, "cls.predictions.weight"));  // the bias-only row
  CHECK(checkpoint_spelling(bert, mlm, "encoder.layer.0.output.dense.weight") == "encoder.layer.0.output.dense.weight");
}

// `bench --save` writes each shape's tensors under their checkpoint spelling: every name must come back
// as the same canonical one, or the folder would not load (DeBERTa's key_proj, ModernBERT's layers.N,
// Nomic's emb_ln were written under canonical names once, and refused).
TEST_CASE("checkpoint_spelling: every tensor of every bench shape reads back as itself") {
  for (const bertkit::core::ModelShape& shape : bertkit::core::model_shapes()) {
    const bertkit::core::ModelConfig config = bertkit::core::config_of(shape);
    const ArchitectureSpec& architecture = bertkit::core::architecture_spec(config);
    for (const bertkit::core::TensorDecl& t : bertkit::core::model_tensors(config)) {
      const std::string spelled = checkpoint_spelling(*config.family, architecture, t.name);
      INFO(shape.name << ": " << t.name << " spelled " << spelled);
      CHECK(canonical_name(*config.family, architecture, spelled) == std::optional<std::string>(t.name));
    }
  }
  const FamilySpec& deberta = *find_family("deberta-v2");
  CHECK(checkpoint_spelling(deberta, deberta.architectures[0], "encoder.layer.3.attention.self.key.bias") ==
        "encoder.layer.3.attention.self.key_proj.bias");
}
