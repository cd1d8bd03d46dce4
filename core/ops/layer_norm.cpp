#include "core/ops/layer_norm.h"

#include "core/ops/kernel_table.h"
#include "core/ops/simd.h"

#include <cmath>

namespace bertkit::core {
namespace {

// y may be x (in place).
BK_VECTOR_BODY void layer_norm_row_body(const float* x, float* y, std::int64_t n, const float* gamma, const float* beta,
                                        float eps) {
  float sum = 0.0f;
#pragma omp simd reduction(+ : sum)
  for (std::int64_t j = 0; j < n; ++j) sum += x[j];
  const float mean = sum / static_cast<float>(n);
  float squares = 0.0f;
#pragma omp simd reduction(+ : squares)
  for (std::int64_t j = 0; j < n; ++j) squares += (x[j] - mean) * (x[j] - mean);
  const float rstd = 1.0f / std::sqrt(squares / static_cast<float>(n) + eps);
  if (!beta) {  // a bias-free LayerNorm (ModernBERT's)
#pragma omp simd
    for (std::int64_t j = 0; j < n; ++j) y[j] = (x[j] - mean) * rstd * gamma[j];
    return;
  }
#pragma omp simd
  for (std::int64_t j = 0; j < n; ++j) y[j] = (x[j] - mean) * rstd * gamma[j] + beta[j];
}

}  // namespace

constinit const VectorVariants<void(const float*, float*, std::int64_t, const float*, const float*, float)>
    layer_norm_row_variants =
    VectorClones<layer_norm_row_body>::variants;

void layer_norm(const float* x, float* y, std::int64_t rows, std::int64_t n, const float* gamma, const float* beta,
                float eps, const ReducedCopy& copy) {
  const auto row = kernels().layer_norm_row;
  // A thread team costs more than normalising a few short rows.
#pragma omp parallel for schedule(static) if (rows * n >= 16384)
  for (std::int64_t r = 0; r < rows; ++r) {
    row(x + r * n, y + r * n, n, gamma, beta, eps);
    copy.write_row(r, y + r * n, n);
  }
}

void layer_norm(float* x, std::int64_t rows, std::int64_t n, const float* gamma, const float* beta, float eps) {
  layer_norm(x, x, rows, n, gamma, beta, eps);
}

}  // namespace bertkit::core
