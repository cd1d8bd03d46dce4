// ModernBERT (model_type "modernbert"): its own layer (core/model/blocks/modernbert_block.h) over token
// embeddings without positions or token types, a final LayerNorm, no biases unless config.json asks for
// them, and one prediction head (head.dense -> activation -> head.norm) under every task head: the MLM
// decoder tied to the token embeddings, the sequence classifier on [CLS] or the mean of the tokens, the
// token classifier and the span classifier. Task checkpoints prefix the encoder with "model.".
#include "core/model/blocks/modernbert_block.h"
#include "core/model/family_spec.h"

namespace bertkit::core {

void read_modernbert_settings(const ConfigReader& reader, ModelConfig& config);  // modernbert_config.cpp

const FamilySpec& modernbert_family() {
  static constexpr ModuleName embeddings[] = {
      {"embeddings.tok_embeddings", "embeddings.word_embeddings"},
      {"embeddings.norm", "embeddings.LayerNorm"},
  };
  // The recipe declares the checkpoint's own layer names.
  static constexpr ModuleName layer[] = {
      {"attn_norm", "attn_norm"}, {"attn.Wqkv", "attn.Wqkv"}, {"attn.Wo", "attn.Wo"},
      {"mlp_norm", "mlp_norm"},   {"mlp.Wi", "mlp.Wi"},       {"mlp.Wo", "mlp.Wo"},
  };
  static constexpr ModuleName other[] = {
      {"final_norm", "final_norm"},
      {"head.dense", "head.dense"},
      {"head.norm", "head.norm"},
      {"classifier", "classifier.out"},
  };
  // The MLM head is the same head.dense/head.norm, read by the MLM head as its transform.
  static constexpr ModuleName mlm[] = {
      {"head.dense", "mlm.transform.dense"},
      {"head.norm", "mlm.transform.LayerNorm"},
      {"decoder", "mlm.decoder"},
  };
  // ModernBertForQuestionAnswering names its start/end projection `classifier` (num_labels 2).
  static constexpr ModuleName qa[] = {{"classifier", "qa_outputs"}};
  static constexpr ArchitectureSpec architectures[] = {
      {.name = "ModernBertModel", .head = HeadKind::None},
      {.name = "ModernBertForMaskedLM", .head = HeadKind::MaskedLM, .mlm = true, .modules = mlm},
      {.name = "ModernBertForSequenceClassification", .head = HeadKind::SequenceClassification},
      {.name = "ModernBertForTokenClassification", .head = HeadKind::TokenClassification},
      {.name = "ModernBertForQuestionAnswering", .head = HeadKind::QuestionAnswering, .modules = qa},
  };
  static const FamilySpec spec{
      .model_type = "modernbert",
      .keys = {.activation = "hidden_activation",
               .layer_norm_eps = nullptr,  // norm_eps, read with the family's settings
               .type_vocab_size = nullptr,
               .position_embedding_type = nullptr},  // the Hub's configs say "absolute"; rotary regardless
      .checkpoint_prefix = "model.",
      .layer_prefix = "layers.",
      .embedding_modules = embeddings,
      .layer_modules = layer,
      .other_modules = other,
      .block = &modernbert_block_recipe,
      .read_settings = &read_modernbert_settings,
      .final_norm = true,
      .position_embeddings = false,
      .architectures = architectures,
      .prediction_head = true,
  };
  return spec;
}

}  // namespace bertkit::core
