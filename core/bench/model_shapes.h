#pragma once
// Named model shapes with random weights built in memory, so the encoder can be timed without a
// checkpoint (the benchmark, and later `bertkit bench --shape`).
#include "core/checkpoint/weights.h"
#include "core/model/config.h"

#include <cstdint>
#include <span>
#include <string>
#include <string_view>

namespace bertkit::core {

struct ModelShape {
  std::string_view name;
  int layers, hidden, heads, intermediate;
  std::string_view model_type = "bert";  // "bert", "mpnet", "modernbert", "nomic_bert" or "deberta-v2"
};

// bert-base, bert-large, minilm-l6, minilm-l12 (BERT vocabulary, 512 positions, 2 token types) and
// mpnet-base (all-mpnet-base-v2's config: MPNet's relative position bias, no token types),
// modernbert-base and modernbert-large (answerdotai's configs: 8192 positions, window 128, every 3rd
// layer global), nomic-embed-text (nomic-embed-text-v1.5's remote-code config: rotary, SwiGLU),
// deberta-v3-base (microsoft's config: disentangled attention over 256 position buckets).
std::span<const ModelShape> model_shapes();
// Usage error listing the known names when `name` is not one.
const ModelShape& find_model_shape(std::string_view name);

// The config.json of a bare BertModel (MPNetModel, ModernBertModel, NomicBertModel, DebertaV2Model) of that
// shape (GELU), as Hugging Face writes it.
std::string config_json(const ModelShape& shape);
// That config.json, parsed: the model `bench --save` writes is exactly the one it times.
ModelConfig config_of(const ModelShape& shape);

// Every tensor the configuration reads, filled with seeded random values of a trained model's scale:
// LayerNorm gains within 0.05 of 1, everything else within ±spread/2 (tests widen it so that small terms
// show).
Weights random_weights(const ModelConfig& config, std::uint64_t seed, float spread = 0.08f);

}  // namespace bertkit::core
