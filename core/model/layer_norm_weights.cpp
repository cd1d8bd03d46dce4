#include "core/model/layer_norm_weights.h"

#include "core/ops/layer_norm.h"

namespace bertkit::core {

LayerNormWeights::LayerNormWeights(const Weights& weights, const std::string& module, std::int64_t width, double eps)
    : eps_(static_cast<float>(eps)) {
  auto gamma = weights.require(module + ".weight", {width}).f32();
  auto beta = weights.require(module + ".bias", {width}).f32();
  gamma_.assign(gamma.begin(), gamma.end());
  beta_.assign(beta.begin(), beta.end());
}

void LayerNormWeights::apply(float* x, std::int64_t rows) const {
  layer_norm(x, rows, width(), gamma_.data(), beta_.data(), eps_);
}

}  // namespace bertkit::core
