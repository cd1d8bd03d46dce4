#include "core/ops/activations.h"

#include "core/ops/kernel_table.h"
#include "core/ops/simd.h"

#include <algorithm>
#include <bit>
#include <cmath>
#include <cstdint>

namespace bertkit::core {
namespace {

// e^x within 2 ulp for x in [-87, 88] (clamped there: e^-87 is near the smallest normal float): x = n·ln2 + r
// with |r| <= ln2/2, e^r by its Taylor series to r^7 (the next term is below 6e-9 of it), times 2^n.
BK_VECTOR_BODY float exp_of(float x) {
  x = std::min(std::max(x, -87.0f), 88.0f);
  constexpr float kRound = 12582912.0f;  // 1.5 * 2^23: adding it rounds to the nearest integer
  const float n = (x * 1.44269504f + kRound) - kRound;
  // ln 2 in two parts, the first with few enough bits that n times it is exact.
  const float r = (x - n * 0.693145751953125f) - n * 1.42860677e-6f;
  float p = 1.0f / 5040.0f;
  p = p * r + 1.0f / 720.0f;
  p = p * r + 1.0f / 120.0f;
  p = p * r + 1.0f / 24.0f;
  p = p * r + 1.0f / 6.0f;
  p = p * r + 0.5f;
  p = p * r + 1.0f;
  p = p * r + 1.0f;
  return p * std::bit_cast<float>((static_cast<std::int32_t>(n) + 127) << 23);
}

// 1 + erf(x / sqrt 2): 2 - erfc(a) for x >= 0, erfc(a) below, a = |x| / sqrt 2, erfc by 7.1.26.
BK_VECTOR_BODY float one_plus_erf_of_scaled(float x) {
  const float a = std::abs(x) * 0.70710678f;
  const float t = 1.0f / (1.0f + 0.3275911f * a);
  float p = 1.061405429f;
  p = p * t - 1.453152027f;
  p = p * t + 1.421413741f;
  p = p * t - 0.284496736f;
  p = p * t + 0.254829592f;
  const float erfc = p * t * exp_of(-a * a);
  return x >= 0.0f ? 2.0f - erfc : erfc;
}

BK_VECTOR_BODY void activate_body(float* x, std::int64_t n, int f) {
  switch (static_cast<Eltwise>(f)) {
    case Eltwise::Identity: return;
    case Eltwise::Gelu:
#pragma omp simd
      for (std::int64_t j = 0; j < n; ++j) x[j] = 0.5f * x[j] * one_plus_erf_of_scaled(x[j]);
      return;
    case Eltwise::GeluTanh:
      // x (1 + tanh z) / 2 = x sigmoid(2z), z = sqrt(2/pi) (x + 0.044715 x^3)
#pragma omp simd
      for (std::int64_t j = 0; j < n; ++j) {
        const float v = x[j], z = 0.7978845608f * (v + 0.044715f * v * v * v);
        x[j] = v / (1.0f + exp_of(-2.0f * z));
      }
      return;
    case Eltwise::Relu:
#pragma omp simd
      for (std::int64_t j = 0; j < n; ++j) x[j] = std::max(x[j], 0.0f);
      return;
    case Eltwise::Silu:
#pragma omp simd
      for (std::int64_t j = 0; j < n; ++j) x[j] = x[j] / (1.0f + exp_of(-x[j]));
      return;
    case Eltwise::Tanh:
#pragma omp simd
      for (std::int64_t j = 0; j < n; ++j) {
        const float magnitude = 1.0f - 2.0f / (1.0f + exp_of(2.0f * std::abs(x[j])));
        x[j] = x[j] < 0.0f ? -magnitude : magnitude;
      }
      return;
  }
}

}  // namespace

constinit const VectorVariants<void(float*, std::int64_t, int)> activation_row_variants =
    VectorClones<activate_body>::variants;

void activate_in_place(float* x, std::int64_t n, Eltwise f) { kernels().activation_row(x, n, static_cast<int>(f)); }

}  // namespace bertkit::core
