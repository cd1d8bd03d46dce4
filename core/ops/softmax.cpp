#include "core/ops/softmax.h"

#include "core/ops/simd.h"

#include <limits>

namespace bertkit::core {

BK_VECTOR_CLONES
void softmax_row(float* x, std::int64_t n) {
  float max = -std::numeric_limits<float>::infinity();
#pragma omp simd reduction(max : max)
  for (std::int64_t j = 0; j < n; ++j) max = x[j] > max ? x[j] : max;
  float sum = 0.0f;
#pragma omp simd reduction(+ : sum)
  for (std::int64_t j = 0; j < n; ++j) {
    x[j] = exp_nonpositive(x[j] - max);
    sum += x[j];
  }
  const float inverse = 1.0f / sum;
#pragma omp simd
  for (std::int64_t j = 0; j < n; ++j) x[j] *= inverse;
}

void softmax_rows(float* x, std::int64_t rows, std::int64_t n) {
#pragma omp parallel for schedule(static) if (rows * n >= 16384)
  for (std::int64_t r = 0; r < rows; ++r) softmax_row(x + r * n, n);
}

}  // namespace bertkit::core
