#pragma once
// LayerNorm over the last dimension, in place or into another buffer, as torch.nn.LayerNorm computes it in float32:
// y = (x − mean) / sqrt(var + eps) · gamma + beta, with the biased variance; without beta when it is null
// (nn.LayerNorm(bias=False), ModernBERT's).
#include "core/ops/reduced_activations.h"

#include <cstdint>

namespace bertkit::core {

// A LayerNorm for an op that normalises the rows it writes as it finishes them (Linear's forward_normed).
struct LayerNormParams {
  const float* gamma = nullptr;  // [n]
  const float* beta = nullptr;   // [n], or null: no bias
  float eps = 0;
  ReducedCopy copy;  // also gets the normalised rows, for the layer that reads them next

  // The same norm for rows r on of rows n wide (its copy moved on).
  LayerNormParams from_row(std::int64_t r, std::int64_t n) const {
    LayerNormParams rest = *this;
    rest.copy = copy.from_row(r, n);
    return rest;
  }
};

// x: [rows, n]; gamma: [n]; beta: [n] or null. Rows are spread over the OpenMP threads.
void layer_norm(float* x, std::int64_t rows, std::int64_t n, const float* gamma, const float* beta, float eps);
// The same into y (a pre-norm block normalises a copy and keeps x as the residual): one pass, not a
// serial copy and then the norm.
// `copy` also gets y in the type of the layer that reads it next (bf16, s8): in the same pass, while each
// row is in cache.
void layer_norm(const float* x, float* y, std::int64_t rows, std::int64_t n, const float* gamma, const float* beta,
                float eps, const ReducedCopy& copy = {});

}  // namespace bertkit::core
