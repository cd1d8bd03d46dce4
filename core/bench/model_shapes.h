#pragma once
// Named model shapes with random weights built in memory, so the encoder can be timed without a
// checkpoint (the benchmark, and later `bertkit bench --shape`).
#include "core/checkpoint/weights.h"
#include "core/model/config.h"

#include <cstdint>
#include <span>
#include <string_view>

namespace bertkit::core {

struct ModelShape {
  std::string_view name;
  int layers, hidden, heads, intermediate;
};

// bert-base, bert-large, minilm-l6, minilm-l12 (BERT vocabulary, 512 positions, 2 token types).
std::span<const ModelShape> model_shapes();
// Usage error listing the known names when `name` is not one.
const ModelShape& find_model_shape(std::string_view name);

// A bare BertModel of that shape, GELU.
ModelConfig config_of(const ModelShape& shape);

// Every tensor the configuration reads, filled with seeded random values of a trained model's scale.
Weights random_weights(const ModelConfig& config, std::uint64_t seed);

}  // namespace bertkit::core
