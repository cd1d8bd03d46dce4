#pragma once
// Everything `-m/--model` names, loaded: a Hugging Face folder, a sentence-transformers folder, a
// converted bertkit file, or a model id found in the local Hugging Face cache.
#include "core/checkpoint/tokenizer_files.h"
#include "core/checkpoint/weights.h"
#include "core/hub/hub_cache.h"
#include "core/model/config.h"
#include "core/model/sentence_transformer_config.h"

#include <filesystem>
#include <functional>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace bertkit::core {

struct LoadedModel {
  std::string name;                 // as given to -m
  std::filesystem::path location;   // the folder (the transformer's, for sentence-transformers) or file
  std::string config_json;          // the text of config.json
  ModelConfig config;
  Weights weights;
  std::vector<std::string> unexpected_tensors;  // checkpoint names the model does not use
  TokenizerFiles tokenizer;
  std::optional<SentenceTransformerConfig> sentence_transformer;
  // BGE-M3's sparse_linear.pt beside the weights: its tensors are in `weights` (sparse_linear_head.h).
  bool sparse_linear = false;
  // BGE-M3's colbert_linear.pt likewise (colbert_linear_head.h).
  bool colbert_linear = false;
  DType stored_dtype = DType::F32;  // of a converted file; checkpoints are always handed out as f32
  // Where each part came from, for `bertkit info`: ("config", path), ("weights", path), ...
  std::vector<std::pair<std::string, std::string>> origins;
  // Every file read (configs, weights, tokenizer files, or the converted file): what an output may
  // never be (records/output_guard.h).
  std::vector<std::filesystem::path> files;
};

// The folder or file that `spec` names: an existing path, else a Hugging Face model id
// (ORG/NAME[@REVISION]) found in the local caches (find_cached_model) with what `part` needs
// (incomplete_snapshot), else -- when a fetcher is installed -- the folder it downloads or completes the
// model in. Never goes online by itself.
std::filesystem::path resolve_model_location(std::string_view spec, ModelPart part = ModelPart::Whole);

// Why the cache could not answer alone, for the fetcher's note.
struct CacheMiss {
  ModelPart need = ModelPart::Whole;
  // The reason a snapshot that is there is not used as it is (incomplete_snapshot); nothing when the
  // model is not in the cache at all.
  std::optional<std::string> incomplete;
  bool cut_off = false;  // a download into the cache stopped before its end
};
// How a model id the caches cannot answer is obtained: the CLI installs the Hub download
// (core/hub/hub_download.h) so that every command taking -m fetches it, or what a snapshot lacks;
// unset, such an id is refused.
using ModelFetcher = std::function<std::filesystem::path(const ModelId& id, const CacheMiss& miss)>;
void set_model_fetcher(ModelFetcher fetcher);

LoadedModel load_model(std::string_view spec);

// config_sentence_transformers.json: prompts, default_prompt_name, similarity_fn_name and truncate_dim
// (and whether texts are stripped: see SentenceTransformerConfig::strip_texts).
void read_sentence_transformers_config(const std::filesystem::path& path, SentenceTransformerConfig& st);

}  // namespace bertkit::core
