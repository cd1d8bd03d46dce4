#include "core/model/layer_norm_weights.h"

#include "core/ops/layer_norm.h"
#include "core/ops/op_profile.h"

namespace bertkit::core {

LayerNormWeights::LayerNormWeights(const Weights& weights, const NormDecl& decl, double eps)
    : eps_(static_cast<float>(eps)) {
  auto gamma = weights.require(decl.module + ".weight", {decl.width}).f32();
  gamma_.assign(gamma.begin(), gamma.end());
  if (!decl.has_bias) return;
  auto beta = weights.require(decl.module + ".bias", {decl.width}).f32();
  beta_.assign(beta.begin(), beta.end());
}

void LayerNormWeights::apply(float* x, std::int64_t rows) const { apply(x, x, rows); }

void LayerNormWeights::apply(const float* x, float* y, std::int64_t rows, const ReducedCopy& copy) const {
  ProfiledOp op("layer norm");
  layer_norm(x, y, rows, width(), gamma_.data(), beta_.empty() ? nullptr : beta_.data(), eps_, copy);
}

LayerNormParams LayerNormWeights::params(const ReducedCopy& copy) const {
  return {gamma_.data(), beta_.empty() ? nullptr : beta_.data(), eps_, copy};
}

}  // namespace bertkit::core
