#pragma once
// One model family (config.json's model_type) as data: where config.json keeps each size, what the
// checkpoint calls each tensor (per family, and per architecture where one name means different
// tensors), which architectures (heads) the family offers, how its heads are built, and which block
// recipe computes its layers (core/model/blocks/block.h). The config reader, the name map, the
// embeddings, the heads and the encoder read this; nothing else asks which family a model is. Tensors
// themselves are declared by the parts that read them (core/model/model_tensors.h), never listed here.
//
// A BERT-shaped family (its layer is BERT's, whatever its tensors are called): data only.
//   1. core/model/families/<family>.cpp: a function returning its FamilySpec. Start from the closest
//      family and change only what differs: config keys, name rows (reuse BERT's, families/bert.h,
//      where the checkpoint spells them BERT's way; an architecture's own rows in its `modules`),
//      architecture rows, head shapes, special tokens. `block` stays bert_block_recipe.
//   2. core/model/families/registry.cpp: declare that function and add it to families().
//   3. Code only for what no field here describes yet: give FamilySpec a new field whose default is
//      what the existing families do, read it where the computation differs, set it in the new file.
//   4. Tests: the model_type list in tests/unit/family_spec_test.cpp, the family's spellings in
//      tests/unit/checkpoint_name_map_test.cpp, and a fixture with goldens for the golden tests.
// A new kind of layer (pre-norm, rotary positions, a gated feed-forward, another attention): a block
// recipe over the shared ops, core/model/blocks/<kind>_block.{h,cpp} (declare the layer's tensors,
// build a Block that runs over packed sequences with its LayerContext), its `extern` declaration below
// beside bert_block_recipe, then the spec as above with `.block` naming it and `layer_modules` mapping
// the checkpoint's layer names onto the names the recipe declares. README's "Adding a model family"
// lists every file.
// For example RoBERTa is BERT's keys and layer names with checkpoint_prefix "roberta.", lm_head.* for
// the MLM head (GELU), positions_after_padding, classifier {dense = Tanh} with no pooler in its
// ForSequenceClassification row, and <s> </s> <pad> <mask> <unk>: steps 1, 2 and 4 only.
#include "core/model/config.h"
#include "core/ops/eltwise.h"

#include <optional>
#include <span>
#include <string>
#include <string_view>

namespace bertkit::core {

// A module path (a tensor name without ".weight"/".bias") as the checkpoint spells it, and its
// canonical name (see core/model/name_map.h); `only` limits the row to one parameter ("bias").
struct ModuleName {
  std::string_view checkpoint;
  std::string_view canonical;
  std::string_view only = {};
};

// Where config.json keeps each setting; nullptr: the family has no such key (the comment says what
// holds then).
struct ConfigKeys {
  const char* hidden_size = "hidden_size";
  const char* num_layers = "num_hidden_layers";
  const char* num_heads = "num_attention_heads";
  const char* intermediate_size = "intermediate_size";
  const char* activation = "hidden_act";
  const char* layer_norm_eps = "layer_norm_eps";                    // nullptr: 1e-12, fixed in the modelling code
  const char* type_vocab_size = "type_vocab_size";                  // nullptr: no token type embeddings
  const char* position_embedding_type = "position_embedding_type";  // only "absolute" is supported
  const char* embedding_size = nullptr;                             // nullptr: embeddings are hidden_size wide
  int default_embedding_size = 0;                                   // when embedding_size is absent
  const char* relative_attention_buckets = nullptr;                 // nullptr: no relative position bias
};

// Another spelling of a config.json key, read where the key itself is absent (NomicBERT's remote-code
// configs say n_embd for hidden_size): one spec reads both layouts.
struct ConfigKeyAlias {
  const char* alias;
  const char* key;
};

// The computation of one layer (core/model/blocks/block.h); BERT's is every family's so far.
struct BlockRecipe;
extern const BlockRecipe bert_block_recipe;        // core/model/blocks/bert_block.cpp
extern const BlockRecipe modernbert_block_recipe;  // core/model/blocks/modernbert_block.cpp
extern const BlockRecipe nomic_block_recipe;       // core/model/blocks/nomic_block.cpp
extern const BlockRecipe deberta_block_recipe;     // core/model/blocks/deberta_block.cpp

class ConfigReader;  // core/model/config_reader.h

enum class PoolerUse { None, Optional, Required };

// One architecture the family offers (config.json's architectures[0]) and the tensors of its head.
struct ArchitectureSpec {
  std::string_view name = {};  // e.g. "BertForSequenceClassification"
  HeadKind head = HeadKind::None;
  PoolerUse pooler = PoolerUse::None;  // BERT's pooler: tanh(dense([CLS])), canonical pooler.dense
  bool mlm = false;                    // the masked-LM head (mlm.*)
  bool discriminator = false;          // ELECTRA's replaced-token detector (discriminator.*)
  bool nsp = false;                    // BERT's next-sentence head on the pooler output (nsp)
  // Name rows of this architecture alone, read before the family's: where one checkpoint name means
  // different tensors in different architectures (RoBERTa's classifier.weight is the token classifier;
  // its sequence classifier is classifier.out_proj).
  std::span<const ModuleName> modules = {};
};

// The masked-LM head: transform (dense, activation, LayerNorm), then the decoder onto the vocabulary.
struct MlmHeadSpec {
  bool embedding_width = false;       // works in embedding_size, not hidden_size (ELECTRA's generator)
  std::optional<Eltwise> activation = std::nullopt;  // nullopt: the hidden activation config.json names
};

// The sequence classifier on [CLS] (on the pooler output when the architecture has a pooler):
// [classifier.dense + activation], then classifier.out onto the labels.
struct ClassifierSpec {
  std::optional<Eltwise> dense = std::nullopt;  // nullopt: no dense layer before classifier.out
};

// The tokens the family's post-processor puts around one text or a pair (cls A sep, cls A sep B sep),
// as transformers' tokenizer for the family names them when tokenizer files do not; the tokenizer's
// own defaults (tok::SpecialTokens) are BERT's, which tests/unit/family_spec_test.cpp keeps in step.
struct SpecialTokenNames {
  std::string_view cls = "[CLS]", sep = "[SEP]", pad = "[PAD]", mask = "[MASK]", unk = "[UNK]";
};

struct FamilySpec {
  std::string_view model_type = {};  // config.json's model_type, also the name in messages and `info`
  ConfigKeys keys = {};
  std::span<const ConfigKeyAlias> key_aliases = {};

  // Tensor names. The checkpoint of a model with a head prefixes the base model's tensors with
  // `checkpoint_prefix`; encoder layer N is `layer_prefix` + "N." + a row of layer_modules.
  std::string_view checkpoint_prefix = {};
  std::string_view other_checkpoint_prefix = {};  // another layout's (NomicBERT: "nomic_bert." and remote code's "bert.")
  std::string_view layer_prefix = {};
  std::span<const ModuleName> embedding_modules = {};
  std::span<const ModuleName> layer_modules = {};
  std::span<const ModuleName> other_modules = {};  // pooler, projection, heads

  // The layer's computation and the tensors it reads, under the canonical names layer_modules map to.
  const BlockRecipe* block = &bert_block_recipe;
  // The family's own config.json settings (per-layer attention, biases, head pooling), read after the
  // common ones; nullptr: none.
  void (*read_settings)(const ConfigReader& reader, ModelConfig& config) = nullptr;
  // A LayerNorm (canonical final_norm) over the last layer's output (ModernBERT), else none.
  bool final_norm = false;

  // Embeddings.
  bool positions_after_padding = false;  // position ids start at pad_token_id + 1 (RoBERTa), else at 0
  bool embedding_projection = false;     // embeddings_project from embedding_size to hidden_size (ELECTRA)
  // The projection without bias and before the LayerNorm, which is then hidden_size wide (DeBERTa's
  // embed_proj); false: after the LayerNorm, with a bias (ELECTRA's).
  bool projection_before_norm = false;
  bool position_embeddings = true;       // a learned position table; false: positions are the layers' (rotary)

  // Heads.
  std::span<const ArchitectureSpec> architectures = {};  // the first is the base model (no architectures key)
  MlmHeadSpec mlm = {};
  ClassifierSpec classifier = {};
  // ModernBERT's prediction head (canonical head.dense -> activation -> head.norm) between the encoder and
  // the sequence, token and span classifiers (the pooled row for sequences, every token otherwise).
  bool prediction_head = false;

  SpecialTokenNames special_tokens = {};

  // The row of `head`; nullptr when the family does not offer it.
  const ArchitectureSpec* architecture(HeadKind head) const;
  const ArchitectureSpec* architecture(std::string_view name) const;
};

// The registry (core/model/families/registry.cpp), keyed by model_type.
std::span<const FamilySpec* const> families();
const FamilySpec* find_family(std::string_view model_type);  // nullptr if none
std::string supported_model_types();                         // "bert, distilbert, electra, ..."

// The architecture row of a parsed config (its family offers config.head).
const ArchitectureSpec& architecture_spec(const ModelConfig& config);

}  // namespace bertkit::core
