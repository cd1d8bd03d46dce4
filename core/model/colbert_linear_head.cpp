#include "core/model/colbert_linear_head.h"

#include "core/model/linear_weights.h"
#include "core/model/pooling.h"

#include <algorithm>

namespace bertkit::core {

namespace {

Linear colbert_linear(const Weights& weights, std::int64_t hidden) {
  const TensorView* w = weights.find(kColbertLinearWeight);
  const std::int64_t dim = w && w->shape.size() == 2 ? w->shape[0] : 0;
  return linear_layer(weights, LinearDecl{"colbert_linear", dim, hidden});
}

}  // namespace

ColbertLinearHead::ColbertLinearHead(const Weights& weights, std::int64_t hidden)
    : linear_(colbert_linear(weights, hidden)) {}

void ColbertLinearHead::forward(const EncoderOutput& out, std::span<const std::size_t> indices,
                                std::vector<std::vector<float>>& vectors) {
  const std::int64_t dim = dimension();
  float* projected = projected_.reserve(static_cast<std::size_t>(out.tokens() * dim));
  linear_.forward(out.last().data(), out.tokens(), projected);
  for (std::size_t k = 0; k < indices.size(); ++k) {
    // FlagEmbedding projects h[:, 1:] and keeps the first length − 1 rows: all but <s>.
    const float* first = projected + (out.offsets[k] + 1) * dim;
    const float* end = projected + out.offsets[k + 1] * dim;
    std::vector<float>& v = vectors[indices[k]];
    v.assign(first, std::max(first, end));
    for (std::size_t r = 0; r * static_cast<std::size_t>(dim) < v.size(); ++r) l2_normalize(v.data() + r * dim, dim);
  }
}

}  // namespace bertkit::core
