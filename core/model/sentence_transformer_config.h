#pragma once
// What a sentence-transformers folder adds to the transformer (modules.json and the configs beside it):
// pooling modes, Dense modules, Normalize, prompts and the similarity function. Plain data, read by the
// model loader (core/loading/model_source.cpp) and computed by core/model/pooling.h.
#include "core/model/colbert_config.h"

#include <cstdint>
#include <map>
#include <optional>
#include <string>
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

// sentence-transformers' SpladePooling module (a SparseEncoder's 1_SpladePooling/config.json) over an
// MLMTransformer's logits: activation, then log1p, then the maximum or the sum over the tokens.
enum class SpladeStrategy { Max, Sum };
enum class SpladeActivation {
  Relu,       // log1p(relu(x)): the SPLADE of the papers
  Log1pRelu,  // log1p(log1p(relu(x)))
};
struct SpladePooling {
  SpladeStrategy strategy = SpladeStrategy::Max;
  SpladeActivation activation = SpladeActivation::Relu;
};

struct SentenceTransformerConfig {
  Pooling pooling;
  // A SparseEncoder: the MLM logits pooled into one vocabulary-wide sparse vector (no Pooling module).
  std::optional<SpladePooling> splade;
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
  // A PyLate ColBERT model: a vector per token (its Dense modules in `dense`), no pooling.
  std::optional<ColbertConfig> colbert;
};

}  // namespace bertkit::core
