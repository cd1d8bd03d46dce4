#pragma once
// A LayerNorm module of a checkpoint: its gain and bias if any (copied: they are small) and eps.
#include "core/checkpoint/weights.h"
#include "core/model/tensor_decls.h"
#include "core/ops/layer_norm.h"

#include <cstdint>
#include <string>
#include <vector>

namespace bertkit::core {

class LayerNormWeights {
 public:
  LayerNormWeights() = default;
  // Reads the module's weight and its bias where it has one, both [width].
  LayerNormWeights(const Weights& weights, const NormDecl& decl, double eps);

  // In place over x: [rows, width].
  void apply(float* x, std::int64_t rows) const;
  // x normalised into y, both [rows, width]; `copy` also gets y in the next layer's type.
  void apply(const float* x, float* y, std::int64_t rows, const ReducedCopy& copy = {}) const;
  // The same norm for an op that applies it to the rows it writes (Linear::forward_normed).
  LayerNormParams params(const ReducedCopy& copy = {}) const;
  std::int64_t width() const { return static_cast<std::int64_t>(gamma_.size()); }

 private:
  std::vector<float> gamma_, beta_;  // beta_ empty: the module has no bias
  float eps_ = 0;
};

}  // namespace bertkit::core
