#pragma once
// BGE-M3's multi-vector output (FlagEmbedding's colbert_linear.pt, a Linear(hidden, colbert_dim)): every
// position after the first (<s>), the last (</s>) included, through the layer, each vector
// L2-normalised (FlagEmbedding's _colbert_embedding and _process_colbert_vecs).
#include "core/checkpoint/weights.h"
#include "core/model/encoder.h"
#include "core/ops/buffer.h"
#include "core/ops/linear.h"

#include <cstdint>
#include <span>
#include <vector>

namespace bertkit::core {

// Tensor names of the head in Weights (and in a converted file).
inline constexpr const char* kColbertLinearWeight = "colbert_linear.weight";  // [colbert_dim, hidden]
inline constexpr const char* kColbertLinearBias = "colbert_linear.bias";      // [colbert_dim]

class ColbertLinearHead {
 public:
  ColbertLinearHead(const Weights& weights, std::int64_t hidden);

  std::int64_t dimension() const { return linear_.out_features(); }
  // The vectors of each sequence k of `out` ([length − 1, dimension()], row-major) into vectors[indices[k]].
  void forward(const EncoderOutput& out, std::span<const std::size_t> indices, std::vector<std::vector<float>>& vectors);

 private:
  Linear linear_;
  FloatBuffer projected_;
};

}  // namespace bertkit::core
