#pragma once
// Everything `-m/--model` names, loaded: a Hugging Face folder, a sentence-transformers folder, a
// converted bertkit file, or a model id found in the local Hugging Face cache.
#include "core/checkpoint/tokenizer_files.h"
#include "core/checkpoint/weights.h"
#include "core/hub/hub_cache.h"
#include "core/model/config.h"

#include <cstdint>
#include <filesystem>
#include <functional>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace bertkit::core {

// sentence-transformers' Pooling module (1_Pooling/config.json); several modes are concatenated in
// this order: cls, max, mean, mean_sqrt_len, weighted_mean, last_token.
struct Pooling {
  bool cls = false;
  bool max = false;
  bool mean = false;
  bool mean_sqrt_len = false;
  bool weighted_mean = false;
  bool last_token = false;
  bool include_prompt = true;
};
// The modes in that order, joined by "+" ("mean", "cls+mean"), for messages and `info`.
std::string pooling_modes_name(const Pooling& pooling);

enum class DenseActivation { Identity, Tanh };

// A sentence-transformers Dense module; its weights are in Weights as dense.K.weight / dense.K.bias
// ([out_features, in_features] / [out_features]) where K is its position in `dense`.
struct DenseLayer {
  int in_features = 0;
  int out_features = 0;
  bool bias = true;
  DenseActivation activation = DenseActivation::Tanh;
};

struct SentenceTransformerConfig {
  Pooling pooling;
  std::vector<DenseLayer> dense;
  bool normalize = false;                    // a Normalize module in modules.json (it has no folder)
  std::optional<int> max_seq_length;         // sentence_bert_config.json
  std::optional<bool> do_lower_case;         // sentence_bert_config.json
  // sentence-transformers 5 and earlier strip each text (str.strip()) before tokenizing; a folder
  // saved by 6 (config_sentence_transformers.json's __version__) is read by a Transformer that does not.
  bool strip_texts = true;
  std::map<std::string, std::string> prompts;  // config_sentence_transformers.json
  std::optional<std::string> default_prompt_name;
  // similarity_fn_name of config_sentence_transformers.json: cosine, dot, euclidean or manhattan.
  std::optional<std::string> similarity_fn_name;
  // truncate_dim of config_sentence_transformers.json: the Matryoshka dimensions kept (positive).
  std::optional<std::int64_t> truncate_dim;
};

struct LoadedModel {
  std::string name;                 // as given to -m
  std::filesystem::path location;   // the folder (the transformer's, for sentence-transformers) or file
  std::string config_json;          // the text of config.json
  ModelConfig config;
  Weights weights;
  std::vector<std::string> unexpected_tensors;  // checkpoint names the model does not use
  TokenizerFiles tokenizer;
  std::optional<SentenceTransformerConfig> sentence_transformer;
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

}  // namespace bertkit::core
