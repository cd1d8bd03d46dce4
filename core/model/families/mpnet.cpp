// MPNet (model_type "mpnet"): BERT's layer with its own names (attention.attn.{q,k,v,o}), no token
// types, positions after the padding index as RoBERTa's, and a relative position bias added to every
// layer's attention scores (core/model/relative_position_bias.h). Heads as RoBERTa's, under RoBERTa's
// names: lm_head.* (always GELU), a classifier dense -> tanh -> out_proj on <s> without pooler.
#include "core/model/families/bert.h"

namespace bertkit::core {

const FamilySpec& mpnet_family() {
  static constexpr ModuleName embeddings[] = {
      {"embeddings.word_embeddings", "embeddings.word_embeddings"},
      {"embeddings.position_embeddings", "embeddings.position_embeddings"},
      {"embeddings.LayerNorm", "embeddings.LayerNorm"},
      // The relative positions' embedding (an nn.Embedding of buckets), kept by the encoder.
      {"encoder.relative_attention_bias", "encoder.relative_attention_bias"},
  };
  static constexpr ModuleName layer[] = {
      {"attention.attn.q", "attention.self.query"},
      {"attention.attn.k", "attention.self.key"},
      {"attention.attn.v", "attention.self.value"},
      {"attention.attn.o", "attention.output.dense"},
      {"attention.LayerNorm", "attention.output.LayerNorm"},
      {"intermediate.dense", "intermediate.dense"},
      {"output.dense", "output.dense"},
      {"output.LayerNorm", "output.LayerNorm"},
  };
  // Only the base model builds the pooler (add_pooling_layer); a checkpoint may lack it.
  static constexpr ArchitectureSpec architectures[] = {
      {.name = "MPNetModel", .head = HeadKind::None, .pooler = PoolerUse::Optional},
      {.name = "MPNetForMaskedLM", .head = HeadKind::MaskedLM, .mlm = true},
      {.name = "MPNetForSequenceClassification", .head = HeadKind::SequenceClassification},
      {.name = "MPNetForQuestionAnswering", .head = HeadKind::QuestionAnswering},
      {.name = "MPNetForTokenClassification", .head = HeadKind::TokenClassification, .modules = kTokenClassifierModules},
  };
  static const FamilySpec spec{
      .model_type = "mpnet",
      .keys = {.type_vocab_size = nullptr,
               .position_embedding_type = nullptr,
               .relative_attention_buckets = "relative_attention_num_buckets"},
      .checkpoint_prefix = "mpnet.",
      .layer_prefix = "encoder.layer.",
      .embedding_modules = embeddings,
      .layer_modules = layer,
      .other_modules = roberta_other_modules(),
      .positions_after_padding = true,
      .architectures = architectures,
      .mlm = {.activation = Eltwise::Gelu},
      .classifier = {.dense = Eltwise::Tanh},
      .special_tokens = {.cls = "<s>", .sep = "</s>", .pad = "<pad>", .mask = "<mask>", .unk = "<unk>"},
  };
  return spec;
}

}  // namespace bertkit::core
