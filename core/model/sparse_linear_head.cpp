#include "core/model/sparse_linear_head.h"

#include <algorithm>
#include <map>

namespace bertkit::core {

SparseLinearHead::SparseLinearHead(const Weights& weights, std::int64_t hidden, std::vector<std::int32_t> dropped_ids)
    : dropped_(std::move(dropped_ids)) {
  weights.require(kSparseLinearWeight, {1, hidden});
  weights.require(kSparseLinearBias, {1});
  weight_ = weights.values_f32(kSparseLinearWeight);
  bias_ = weights.values_f32(kSparseLinearBias)[0];
}

SparseVector SparseLinearHead::forward(const EncoderOutput& out, std::size_t seq, std::span<const std::int32_t> ids) {
  std::map<std::int32_t, float> best;
  for (std::int64_t p = 0; p < out.length(seq); ++p) {
    const std::int32_t id = ids[static_cast<std::size_t>(p)];
    if (std::find(dropped_.begin(), dropped_.end(), id) != dropped_.end()) continue;
    const float* h = out.row(seq, p);
    float dot = 0;
    for (std::size_t k = 0; k < weight_.size(); ++k) dot += h[k] * weight_[k];
    const float w = std::max(dot + bias_, 0.0f);
    if (w <= 0) continue;
    float& kept = best[id];
    kept = std::max(kept, w);
  }
  SparseVector v;
  for (const auto& [id, w] : best) {
    v.indices.push_back(id);
    v.values.push_back(w);
  }
  return v;
}

}  // namespace bertkit::core
