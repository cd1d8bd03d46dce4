#include "core/ops/softmax.h"

#include "core/ops/kernel_table.h"
#include "core/ops/simd.h"

#include <limits>

namespace bertkit::core {
namespace {

BK_VECTOR_BODY void softmax_row_body(float* x, std::int64_t n) {
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

}  // namespace

constinit const VectorVariants<void(float*, std::int64_t)> softmax_row_variants =
    VectorClones<softmax_row_body>::variants;

void softmax_row(float* x, std::int64_t n) { kernels().softmax_row(x, n); }

void softmax_rows(float* x, std::int64_t rows, std::int64_t n) {
  const auto row = kernels().softmax_row;
#pragma omp parallel for schedule(static) if (rows * n >= 16384)
  for (std::int64_t r = 0; r < rows; ++r) row(x + r * n, n);
}

}  // namespace bertkit::core
