#include "core/ops/reduced_activations.h"

#include "core/ops/avx512_intrinsics.h"
#include "core/ops/kernel_table.h"
#include "core/ops/simd.h"
#include "core/ops/threading.h"

#include <omp.h>

#include <algorithm>
#include <bit>
#include <cmath>

namespace bertkit::core {
namespace {

// Elements below which a pass stays on the calling thread.
constexpr std::size_t kMinParallelElements = std::size_t{1} << 16;

BK_VECTOR_BODY float max_abs_body(const float* x, std::size_t n) {
  float m = 0;
#pragma omp simd reduction(max : m)
  for (std::size_t i = 0; i < n; ++i) m = std::max(m, std::abs(x[i]));
  return m;
}

BK_VECTOR_BODY void quantize_body(const float* x, std::size_t n, float inverse_scale, std::int8_t* q) {
  constexpr float kRound = 12582912.0f;  // 1.5 * 2^23: adding it rounds to the nearest integer, ties to even
#pragma omp simd
  for (std::size_t i = 0; i < n; ++i) {
    float v = (x[i] * inverse_scale + kRound) - kRound;
    v = std::min(std::max(v, -127.0f), 127.0f);
    q[i] = static_cast<std::int8_t>(static_cast<std::int32_t>(v));
  }
}

BK_VECTOR_BODY void round_to_bf16_body(const float* x, std::size_t n, std::uint16_t* out) {
#pragma omp simd
  for (std::size_t i = 0; i < n; ++i) {
    std::uint32_t bits = std::bit_cast<std::uint32_t>(x[i]);
    bits += 0x7fffu + ((bits >> 16) & 1u);  // a NaN may come out as inf: the result is garbage either way
    out[i] = static_cast<std::uint16_t>(bits >> 16);
  }
}

#if BK_X86_64
// GCC leaves the loops above scalar (max) or 128 bits wide (s8 narrowing); these are the AVX-512
// forms, with the same results: max is exact in any order, and cvtps rounds to nearest even as the
// kRound trick does.
BK_TARGET_AVX512 float max_abs_avx512(const float* x, std::size_t n) {
  __m512 m = _mm512_setzero_ps();
  std::size_t i = 0;
  for (; i + 16 <= n; i += 16) m = _mm512_max_ps(m, _mm512_abs_ps(_mm512_loadu_ps(x + i)));
  if (i < n) {
    const __mmask16 tail = static_cast<__mmask16>((1u << (n - i)) - 1);
    m = _mm512_max_ps(m, _mm512_abs_ps(_mm512_maskz_loadu_ps(tail, x + i)));
  }
  alignas(64) float lanes[16];  // not _mm512_reduce_max_ps: GCC 12 warns in its header (see the pragma)
  _mm512_store_ps(lanes, m);
  return *std::max_element(lanes, lanes + 16);
}

BK_TARGET_AVX512 inline __m512i quantize_16(__m512 v, __m512 inverse_scale) {
  const __m512i i = _mm512_cvtps_epi32(_mm512_mul_ps(v, inverse_scale));
  return _mm512_min_epi32(_mm512_max_epi32(i, _mm512_set1_epi32(-127)), _mm512_set1_epi32(127));
}

BK_TARGET_AVX512 void quantize_avx512(const float* x, std::size_t n, float inverse_scale, std::int8_t* q) {
  const __m512 inv = _mm512_set1_ps(inverse_scale);
  std::size_t i = 0;
  for (; i + 16 <= n; i += 16)
    _mm_storeu_si128(reinterpret_cast<__m128i*>(q + i), _mm512_cvtepi32_epi8(quantize_16(_mm512_loadu_ps(x + i), inv)));
  if (i < n) {
    const __mmask16 tail = static_cast<__mmask16>((1u << (n - i)) - 1);
    _mm512_mask_cvtepi32_storeu_epi8(q + i, tail, quantize_16(_mm512_maskz_loadu_ps(tail, x + i), inv));
  }
}
#endif

// Runs body(begin, end) over [0, n) in one chunk per thread, or on this thread for small n.
template <typename Body>
void for_chunks(std::size_t n, Body body) {
  if (n < kMinParallelElements || omp_get_max_threads() == 1) return body(std::size_t{0}, n);
#pragma omp parallel
  {
    const auto threads = static_cast<std::size_t>(omp_get_num_threads());
    const auto t = static_cast<std::size_t>(omp_get_thread_num());
    // Chunk bounds on whole cache lines, so no two threads write the same one.
    const std::size_t begin = n * t / threads / 64 * 64;
    const std::size_t end = t + 1 == threads ? n : n * (t + 1) / threads / 64 * 64;
    if (begin < end) body(begin, end);
  }
}

}  // namespace

// max_abs and quantize_s8 have their own AVX-512 forms (above) instead of clones of the loops.
constinit const VectorVariants<float(const float*, std::size_t)> max_abs_variants = {
    VectorClones<max_abs_body>::portable,
#if BK_X86_64
    VectorClones<max_abs_body>::avx2, max_abs_avx512
#endif
};
constinit const VectorVariants<void(const float*, std::size_t, float, std::int8_t*)> quantize_s8_variants = {
    VectorClones<quantize_body>::portable,
#if BK_X86_64
    VectorClones<quantize_body>::avx2, quantize_avx512
#endif
};
constinit const VectorVariants<void(const float*, std::size_t, std::uint16_t*)> round_to_bf16_variants =
    VectorClones<round_to_bf16_body>::variants;

void quantize_s8_rows(const float* x, std::size_t rows, std::size_t columns, std::int8_t* q, float* scales) {
  // Each row alone, whatever the thread count, so a row's bytes and scale depend on that row only.
  auto row = [&](std::size_t r) { quantize_s8_row(x + r * columns, columns, q + r * columns, scales + r); };
  if (rows * columns < kMinParallelElements || omp_get_max_threads() == 1) {
    for (std::size_t r = 0; r < rows; ++r) row(r);
    return;
  }
  const auto n = static_cast<std::int64_t>(rows);
#pragma omp parallel for schedule(static)
  for (std::int64_t r = 0; r < n; ++r) row(static_cast<std::size_t>(r));
}

void quantize_s8_row(const float* x, std::size_t columns, std::int8_t* q, float* scale) {
  const KernelTable& table = kernels();
  const float largest = table.max_abs(x, columns);
  *scale = largest / 127.0f;
  const float inverse = largest > 0 ? 127.0f / largest : 0.0f;  // an all-zero row: q = 0, scale 0
  table.quantize_s8(x, columns, inverse, q);
}

ReducedCopy ReducedCopy::from_row(std::int64_t r, std::int64_t columns) const {
  ReducedCopy rest = *this;
  if (bf16) rest.bf16 += r * columns;
  if (s8.values) rest.s8 = s8.from_row(r, columns);
  return rest;
}

void ReducedCopy::write_row(std::int64_t r, const float* x, std::int64_t columns) const {
  if (bf16) kernels().round_to_bf16(x, static_cast<std::size_t>(columns), bf16 + r * columns);
  if (s8.values) s8.write_row(r, x, columns);
}

void round_to_bf16(const float* x, std::size_t n, std::uint16_t* out) {
  const auto span = kernels().round_to_bf16;
  for_chunks(n, [&](std::size_t begin, std::size_t end) { span(x + begin, end - begin, out + begin); });
}

}  // namespace bertkit::core
