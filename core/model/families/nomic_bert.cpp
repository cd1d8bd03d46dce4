// NomicBERT (model_type "nomic_bert": nomic-embed-text v1/v1.5, nomic-bert-2048, arctic-embed-m-long,
// CodeRankEmbed): its own layer (core/model/blocks/nomic_block.h) over word and token-type embeddings
// (no position table: rotary positions) and emb_ln, BERT's pooler and classifier. One spec reads both
// layouts: the Hub's remote-code configs (n_embd, n_head, ... via key_aliases; tensors under "bert." in
// a classifier) and transformers 5's native configs (hidden_size, ...; "nomic_bert."), whose checkpoint
// files carry the same tensor names.
#include "core/model/blocks/nomic_block.h"
#include "core/model/family_spec.h"

namespace bertkit::core {

void read_nomic_settings(const ConfigReader& reader, ModelConfig& config);  // nomic_config.cpp

const FamilySpec& nomic_bert_family() {
  static constexpr ConfigKeyAlias aliases[] = {
      {"n_embd", "hidden_size"},
      {"n_head", "num_attention_heads"},
      {"n_layer", "num_hidden_layers"},
      {"n_inner", "intermediate_size"},
      {"n_positions", "max_position_embeddings"},
      {"layer_norm_epsilon", "layer_norm_eps"},
  };
  static constexpr ModuleName embeddings[] = {
      {"embeddings.word_embeddings", "embeddings.word_embeddings"},
      {"embeddings.token_type_embeddings", "embeddings.token_type_embeddings"},
      {"emb_ln", "embeddings.LayerNorm"},
  };
  // The recipe declares the checkpoint's own layer names.
  static constexpr ModuleName layer[] = {
      {"attn.Wqkv", "attn.Wqkv"}, {"attn.out_proj", "attn.out_proj"}, {"norm1", "norm1"}, {"mlp.fc11", "mlp.fc11"},
      {"mlp.fc12", "mlp.fc12"},   {"mlp.fc2", "mlp.fc2"},             {"norm2", "norm2"},
  };
  static constexpr ModuleName other[] = {
      {"pooler.dense", "pooler.dense"},
      {"classifier", "classifier.out"},
  };
  static constexpr ArchitectureSpec architectures[] = {
      {.name = "NomicBertModel", .head = HeadKind::None, .pooler = PoolerUse::Optional},
      {.name = "NomicBertForSequenceClassification", .head = HeadKind::SequenceClassification,
       .pooler = PoolerUse::Required},
  };
  static const FamilySpec spec{
      .model_type = "nomic_bert",
      .keys = {.position_embedding_type = nullptr},  // rotary, whatever the config says
      .key_aliases = aliases,
      .checkpoint_prefix = "nomic_bert.",
      .other_checkpoint_prefix = "bert.",
      .layer_prefix = "encoder.layers.",
      .embedding_modules = embeddings,
      .layer_modules = layer,
      .other_modules = other,
      .block = &nomic_block_recipe,
      .read_settings = &read_nomic_settings,
      .position_embeddings = false,
      .architectures = architectures,
  };
  return spec;
}

}  // namespace bertkit::core
