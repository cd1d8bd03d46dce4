#pragma once
// The relative position bias's step inside every attention path (the tiled kernels and the sgemm one):
// see RelativeScoreBias (core/ops/attention.h).
#include "core/ops/simd.h"

#include <cstdint>

namespace bertkit::core {

// Adds the relative bias of queries first .. first+rows (see RelativeScoreBias) to their score rows,
// `width` floats apart, over their first `length` keys; nothing when bias is null. Inlined into each
// kernel, so it is vectorised for that kernel's instruction set.
BK_VECTOR_BODY void add_relative_bias(const float* bias, std::int64_t first, std::int64_t rows, std::int64_t length,
                                      float* scores, std::int64_t width) {
  if (!bias) return;
  for (std::int64_t r = 0; r < rows; ++r) {
    const float* b = bias - (first + r);  // key j of query first+r: relative position j − first − r
    float* s = scores + r * width;
    for (std::int64_t j = 0; j < length; ++j) s[j] += b[j];
  }
}

}  // namespace bertkit::core
