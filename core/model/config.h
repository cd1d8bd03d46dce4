#pragma once
// Everything in config.json that changes the computation, in canonical fields whatever the family
// calls them (core/model/family_spec.h says where each family keeps them).
#include "core/ops/eltwise.h"

#include <cstdint>
#include <filesystem>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace bertkit::core {

struct FamilySpec;

enum class Activation { Gelu, GeluTanh, Relu, Silu };
// TokenClassification and NextSentencePrediction checkpoints load (their weights, the encoder for
// embed) before any command runs their heads.
// Stanford ColBERT's checkpoints name this architecture over the family's base encoder, whose
// projection (linear.weight) core/loading/stanford_colbert.h reads.
inline constexpr std::string_view kStanfordColbertArchitecture = "HF_ColBERT";

enum class HeadKind {
  None,
  MaskedLM,
  SequenceClassification,
  QuestionAnswering,
  PreTraining,
  TokenClassification,
  NextSentencePrediction,
};
enum class ProblemType { Auto, SingleLabel, MultiLabel, Regression };
// What a sequence classifier reads: the first token's row, or the mean of the sequence's rows
// (ModernBERT's classifier_pooling).
enum class ClassifierPooling { Cls, Mean };

// How one encoder layer attends, where layers differ (ModernBERT's global and sliding layers).
struct LayerAttention {
  double rope_theta = 0;      // the rotary positions' base
  std::int64_t window = -1;   // keys within this many tokens of the query; -1: every key (global)
};

// DeBERTa-v2's disentangled attention (core/model/blocks/deberta_block.h), from its config.json.
struct DisentangledAttention {
  bool relative = false;             // relative_attention: the c2p / p2c terms over relative embeddings
  bool c2p = false, p2c = false;     // pos_att_type
  int buckets = 0;                   // position_buckets; 0: relative positions are not log-bucketed
  int max_relative = 0;              // max_relative_positions (−1 in config.json: max_position_embeddings)
  bool share_key = false;            // share_att_key: the positions go through the layer's own Q and K
  bool norm_relative = false;        // norm_rel_ebd has "layer_norm": encoder.LayerNorm over the table
  // The terms' span: relative embeddings have 2·span rows.
  int span() const { return buckets > 0 ? buckets : max_relative; }
  // Q·Kᵀ and each term are divided by √(head_dim · (1 + terms)), terms counted whether relative or not.
  int scale_factor() const { return 1 + int{c2p} + int{p2c}; }
};

// Which modules have a bias (ModernBERT's config turns each off; every BERT-family module has one).
struct ModuleBiases {
  bool attention = true;  // the attention projections (attention_bias)
  bool mlp = true;        // the feed-forward (mlp_bias)
  bool mlp_out = true;    // NomicBERT's feed-forward output (mlp_fc2_bias; its input's is `mlp`)
  bool norm = true;       // every LayerNorm (norm_bias)
  bool head = true;       // the prediction head's dense (classifier_bias)
  bool decoder = true;    // the MLM decoder (decoder_bias)
};

// The head config.json names when the checkpoint holds none of its tensors (all-mpnet-base-v2's
// config names MPNetForMaskedLM over MPNetModel's weights): the model is then its encoder alone, as
// sentence-transformers and transformers' AutoModel load it, and a command that needs the head says so.
struct AbsentHead {
  HeadKind head = HeadKind::None;
  std::vector<std::string> tensors;  // the head's tensors as the checkpoint would spell them
};

// Rotary positions where the family's layers have them (their base is LayerAttention::rope_theta).
struct RotarySettings {
  double fraction = 1.0;     // of each head's values rotated (NomicBERT's rotary_emb_fraction)
  bool interleaved = false;  // pairs (2i, 2i+1) instead of NeoX's halves (i, i + d/2)
};

struct ModelConfig {
  const FamilySpec* family = nullptr;  // core/model/family_spec.h; never null once parsed
  std::string architecture;            // as config.json names it, e.g. "BertForSequenceClassification"
  HeadKind head = HeadKind::None;  // None also when the named head is absent (absent_head says which)
  std::optional<AbsentHead> absent_head;

  int vocab_size = 0;
  int hidden_size = 0;
  int num_layers = 0;
  int num_heads = 0;
  int intermediate_size = 0;
  int max_position_embeddings = 512;
  int type_vocab_size = 2;   // 0 for DistilBERT: no token type embeddings
  int embedding_size = 0;    // ELECTRA; equals hidden_size when there is no embeddings_project
  int position_offset = 0;   // the position id of a sequence's first token (RoBERTa: pad_token_id + 1)
  // The most tokens a sequence may have: the positions after the offset (RoBERTa's 514 give 512).
  std::size_t usable_positions() const { return static_cast<std::size_t>(max_position_embeddings - position_offset); }
  Activation hidden_act = Activation::Gelu;
  double layer_norm_eps = 1e-12;
  // MPNet: rows of the relative position bias table (core/model/relative_position_bias.h); 0: none.
  int relative_attention_buckets = 0;
  int pad_token_id = 0;
  bool tie_word_embeddings = true;  // the MLM decoder is the word embedding matrix unless the file has one

  // One per layer where the family's layers attend differently (ModernBERT); empty otherwise.
  std::vector<LayerAttention> layer_attention;
  ModuleBiases biases;
  RotarySettings rotary;
  // The prediction head's activation (ModernBERT's classifier_activation); nullopt: the family's.
  std::optional<Activation> head_activation;
  ClassifierPooling classifier_pooling = ClassifierPooling::Cls;
  // The activation after classifier.dense where config.json names it (DeBERTa's pooler_hidden_act);
  // nullopt: the family's (ClassifierSpec::dense).
  std::optional<Activation> classifier_activation;
  // Whether the embeddings add a learned position table (DeBERTa's position_biased_input); the family
  // must have one (FamilySpec::position_embeddings).
  bool absolute_positions = true;
  DisentangledAttention disentangled;

  std::vector<std::string> id2label;  // index = class id; empty when the model has no classifier
  ProblemType problem_type = ProblemType::Auto;
  // sentence-transformers' CrossEncoder activation as the checkpoint names it (a torch class such as
  // "torch.nn.modules.activation.Sigmoid"); empty when it names none.
  std::string cross_encoder_activation;
  int num_labels = 0;
};

// Reads config.json; refuses unknown model types and unsupported values with a message naming them.
ModelConfig read_model_config(const std::filesystem::path& config_json);
// The same from the text of a config.json; `source` names it in errors (a path, or a converted file).
ModelConfig parse_model_config(std::string_view json_text, std::string_view source);

// The element-wise op (core/ops/eltwise.h) that computes the function config.json's hidden_act names.
Eltwise eltwise_for(Activation activation);

// Names for messages and `bertkit info`.
std::string_view family_name(const FamilySpec* family);  // model_type: "bert", "distilbert", "electra"
std::string_view activation_name(Activation act);        // "gelu", "gelu_new", "relu", "silu"
std::string_view head_name(HeadKind head);               // "none", "masked-lm", ...
std::string_view problem_type_name(ProblemType type);    // "auto", "single_label_classification", ...

// `config` when has_head(config). Else BadInput when the head config.json names would have done but is
// absent from the checkpoint (naming the head and its tensors), else the usage error "COMMAND needs a
// WANTED model; ARCH has a HEAD head".
using HeadTest = bool (*)(const ModelConfig&);
const ModelConfig& require_head(const ModelConfig& config, HeadTest has_head, std::string_view command,
                                std::string_view wanted);

}  // namespace bertkit::core
