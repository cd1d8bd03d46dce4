#pragma once
// RMSNorm over the last dimension, in place, as transformers' RMSNorm modules (LlamaRMSNorm, T5LayerNorm)
// compute it in float32: y = gamma · (x · 1/sqrt(mean(x²) + eps)). No mean is subtracted and there is
// no bias.
#include <cstdint>

namespace bertkit::core {

// x: [rows, n]; gamma: [n]. Rows are spread over the OpenMP threads.
void rms_norm(float* x, std::int64_t rows, std::int64_t n, const float* gamma, float eps);

}  // namespace bertkit::core
