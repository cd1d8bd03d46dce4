// DeBERTa-v2 and v3 (model_type "deberta-v2": deberta-v3-*, mdeberta-v3-base, the NLI, zero-shot,
// reranker and token classifiers built on them): BERT's post-LayerNorm layer with disentangled
// attention (core/model/blocks/deberta_block.h) over word embeddings (position and token-type tables
// only where config.json asks for them), the embeddings projected before their LayerNorm where
// embedding_size differs, and heads under their transformers names: ContextPooler (pooler.dense ->
// pooler_hidden_act on [CLS]) then classifier, classifier on every token, qa_outputs, and the MLM head
// cls.predictions.* tied to the word embeddings.
#include "core/model/families/bert.h"

namespace bertkit::core {

void read_deberta_settings(const ConfigReader& reader, ModelConfig& config);  // deberta_v2_config.cpp

const FamilySpec& deberta_v2_family() {
  // BERT's layer names but for the attention projections, and the positions' own (share_att_key false).
  static constexpr ModuleName layer[] = {
      {"attention.self.query_proj", "attention.self.query"}, {"attention.self.key_proj", "attention.self.key"},
      {"attention.self.value_proj", "attention.self.value"},
      {"attention.self.pos_query_proj", "attention.self.pos_query_proj"},
      {"attention.self.pos_key_proj", "attention.self.pos_key_proj"},
      {"attention.output.dense", "attention.output.dense"}, {"attention.output.LayerNorm", "attention.output.LayerNorm"},
      {"intermediate.dense", "intermediate.dense"}, {"output.dense", "output.dense"},
      {"output.LayerNorm", "output.LayerNorm"},
  };
  // ContextPooler's dense is the classifier's dense (its activation pooler_hidden_act); the MLM decoder's
  // bias is stored as cls.predictions.bias, its weight is the word embeddings.
  static constexpr ModuleName other[] = {
      {"embeddings.embed_proj", "embeddings_project"},
      {"encoder.rel_embeddings", "encoder.rel_embeddings"}, {"encoder.LayerNorm", "encoder.LayerNorm"},
      {"pooler.dense", "classifier.dense"}, {"classifier", "classifier.out"}, {"qa_outputs", "qa_outputs"},
      {"cls.predictions.transform.dense", "mlm.transform.dense"},
      {"cls.predictions.transform.LayerNorm", "mlm.transform.LayerNorm"},
      {"cls.predictions", "mlm.decoder", "bias"}, {"cls.predictions.decoder", "mlm.decoder"},
  };
  static constexpr ArchitectureSpec architectures[] = {
      {.name = "DebertaV2Model"}, {.name = "DebertaV2ForMaskedLM", .head = HeadKind::MaskedLM, .mlm = true},
      {.name = "DebertaV2ForSequenceClassification", .head = HeadKind::SequenceClassification},
      {.name = "DebertaV2ForTokenClassification", .head = HeadKind::TokenClassification},
      {.name = "DebertaV2ForQuestionAnswering", .head = HeadKind::QuestionAnswering},
  };
  static const FamilySpec spec{
      .model_type = "deberta-v2",
      // layer_norm_eps (1e-7 when absent) and type_vocab_size (0) are read with the family's settings.
      .keys = {.layer_norm_eps = nullptr, .type_vocab_size = nullptr, .position_embedding_type = nullptr,
               .embedding_size = "embedding_size"},
      .checkpoint_prefix = "deberta.",
      .layer_prefix = "encoder.layer.",
      .embedding_modules = bert_embedding_modules(),
      .layer_modules = layer,
      .other_modules = other,
      .block = &deberta_block_recipe,
      .read_settings = &read_deberta_settings,
      // embed_proj: bias-free, before the LayerNorm, where embedding_size differs from hidden_size.
      .embedding_projection = true, .projection_before_norm = true,
      .architectures = architectures,
      .mlm = {.embedding_width = true},  // transform: hidden -> embedding_size, the hidden activation
      .classifier = {.dense = Eltwise::Gelu},
  };
  return spec;
}

}  // namespace bertkit::core
