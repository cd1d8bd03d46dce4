#pragma once
// Static embedding models on disk: a table of one vector per token and a tokenizer.json, no
// transformer and no config.json of one. Two layouts: sentence-transformers' StaticEmbedding module
// (modules.json naming it, its folder holding model.safetensors `embedding.weight` and tokenizer.json;
// sentence-transformers/static-retrieval-mrl-en-v1) and model2vec's (config.json with model_type
// model2vec, model.safetensors `embeddings`; minishlab/potion-base-8M). A folder that is both (model2vec
// saves a modules.json too) is model2vec's: its encode() is the reference for it.
#include "core/checkpoint/tokenizer_files.h"
#include "core/checkpoint/weights.h"
#include "core/model/sentence_transformer_config.h"

#include <cstddef>
#include <filesystem>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace bertkit::core {

enum class StaticLayout { SentenceTransformers, Model2Vec };
std::string_view static_layout_name(StaticLayout layout);

// The name the table has in StaticModel::weights, whatever the file calls it.
inline constexpr std::string_view kStaticTable = "embeddings";

struct StaticModel {
  std::string name;                // as given to -m
  std::filesystem::path location;  // the folder -m named
  std::filesystem::path module;    // the folder of the table and tokenizer.json
  StaticLayout layout = StaticLayout::SentenceTransformers;
  Weights weights;                 // kStaticTable, f32 [rows, dim]
  std::int64_t rows = 0, dim = 0;
  std::string table_name;          // as the file names it (embedding.weight or embeddings)
  TokenizerFiles tokenizer;        // tokenizer.json alone, as both libraries read it
  // sentence-transformers: prompts, similarity_fn_name, truncate_dim of config_sentence_transformers.json,
  // and normalize (a Normalize module); model2vec: normalize of config.json. Pooling is mean, texts unstripped.
  SentenceTransformerConfig settings;
  std::string normalize_from;      // the file that decided `settings.normalize`
  // sentence-transformers keeps the truncation tokenizer.json sets (model2vec turns it off).
  std::optional<std::size_t> truncation_max_length;
  bool truncation_left = false;
  std::vector<std::pair<std::string, std::string>> origins;  // for `info`
  std::vector<std::filesystem::path> files;                  // every file read
};

// Whether the text of a config.json names model_type "model2vec" (a static model, no transformer).
bool names_model2vec(std::string_view config_json);

// The layout of the model folder `folder`, when it is a static embedding model's.
std::optional<StaticLayout> static_layout(const std::filesystem::path& folder);

// Reads a folder static_layout() recognised. BadInput naming the file for anything missing or malformed.
StaticModel load_static_model(const std::filesystem::path& folder, std::string_view spec);

}  // namespace bertkit::core
