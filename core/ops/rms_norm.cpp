#include "core/ops/rms_norm.h"

#include "core/ops/kernel_table.h"
#include "core/ops/simd.h"

#include <cmath>

namespace bertkit::core {
namespace {

BK_VECTOR_BODY void rms_norm_row_body(float* x, std::int64_t n, const float* gamma, float eps) {
  float squares = 0.0f;
#pragma omp simd reduction(+ : squares)
  for (std::int64_t j = 0; j < n; ++j) squares += x[j] * x[j];
  const float inverse = 1.0f / std::sqrt(squares / static_cast<float>(n) + eps);
  // x is scaled first, then multiplied by gamma: the order transformers rounds in.
#pragma omp simd
  for (std::int64_t j = 0; j < n; ++j) x[j] = gamma[j] * (x[j] * inverse);
}

}  // namespace

constinit const VectorVariants<void(float*, std::int64_t, const float*, float)> rms_norm_row_variants =
    VectorClones<rms_norm_row_body>::variants;

void rms_norm(float* x, std::int64_t rows, std::int64_t n, const float* gamma, float eps) {
  const auto row = kernels().rms_norm_row;
  // A thread team costs more than normalising a few short rows.
#pragma omp parallel for schedule(static) if (rows * n >= 16384)
  for (std::int64_t r = 0; r < rows; ++r) row(x + r * n, n, gamma, eps);
}

}  // namespace bertkit::core
