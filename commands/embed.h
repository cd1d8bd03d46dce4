#pragma once
// `bertkit embed`: sentence embeddings the sentence-transformers way (prompt, strip, lower-case,
// encoder, pooling, Dense, Normalize), or the encoder's per-token vectors.
#include "core/checkpoint/model_source.h"
#include "core/model/batching.h"
#include "core/model/encoder.h"
#include "core/model/pooling.h"
#include "tokenizer/encoding.h"

#include <cstdint>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

namespace bertkit::cmd {

enum class PoolingMode { Cls, Mean, Max };

struct EmbedOptions {
  std::optional<PoolingMode> pooling;  // unset: the checkpoint's (mean for a plain transformers model)
  std::optional<bool> normalize;       // unset: the checkpoint's (a Normalize module), else no
  std::optional<std::string> prefix;   // prepended to every text
  std::optional<std::string> prompt;   // a prompt name of config_sentence_transformers.json
};

PoolingMode parse_pooling_mode(std::string_view name);  // cls, mean or max; Usage error otherwise

// What the options and the checkpoint resolve to.
struct EmbedPlan {
  core::SentenceTransformerConfig modules;  // pooling, dense, normalize
  std::string prefix;                       // the prompt's text, or --prefix
  std::string prompt_name;                  // empty: no named prompt
  bool lower_case = false;                  // sentence_bert_config.json do_lower_case
  // For --dry-run: what each setting is and where it came from.
  std::string pooling_text, normalize_text, prompt_text;
};

EmbedPlan plan_embedding(const core::LoadedModel& model, const EmbedOptions& options);

// The text the model sees, as sentence-transformers builds it: prompt + text, stripped of
// surrounding whitespace (Python's str.strip), lower-cased when the checkpoint says so.
std::string model_text(const EmbedPlan& plan, std::string_view text);

class Embedder {
 public:
  Embedder(const core::ModelConfig& config, std::shared_ptr<const core::Weights> weights, const EmbedPlan& plan);

  std::int64_t dimension() const { return pooler_.dimension(); }
  std::int64_t hidden_size() const { return encoder_.config().hidden_size; }

  // One row of dimension() values per encoding, in input order.
  void sentence_embeddings(std::span<const tok::Encoding> encodings, const core::BatchLimits& limits,
                           std::vector<float>& rows);
  // The last hidden state of each encoding ([tokens, hidden_size], row-major), in input order.
  void token_embeddings(std::span<const tok::Encoding> encodings, const core::BatchLimits& limits,
                        std::vector<std::vector<float>>& states);

 private:
  core::Encoder encoder_;
  core::SentencePooler pooler_;
  std::vector<float> pooled_;
};

}  // namespace bertkit::cmd
