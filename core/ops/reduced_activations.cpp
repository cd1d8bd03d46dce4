#include "core/ops/reduced_activations.h"

#include "core/ops/simd.h"
#include "core/ops/threading.h"

#include <immintrin.h>
#include <omp.h>

#include <algorithm>
#include <bit>
#include <cmath>

// GCC 12's AVX-512 headers give several intrinsics an uninitialised vector as their unused source;
// -Wmaybe-uninitialized then reports every inlined call.
#pragma GCC diagnostic ignored "-Wmaybe-uninitialized"

namespace bertkit::core {
namespace {

// Elements below which a pass stays on the calling thread.
constexpr std::size_t kMinParallelElements = std::size_t{1} << 16;

BK_VECTOR_CLONES void min_max(const float* x, std::size_t n, float& lo, float& hi) {
  float a = lo, b = hi;
#pragma omp simd reduction(min : a) reduction(max : b)
  for (std::size_t i = 0; i < n; ++i) {
    a = std::min(a, x[i]);
    b = std::max(b, x[i]);
  }
  lo = a, hi = b;
}

BK_VECTOR_CLONES void quantize_span(const float* x, std::size_t n, float inverse_scale, float zero_point, std::uint8_t* q) {
  constexpr float kRound = 12582912.0f;  // 1.5 * 2^23: adding it rounds to the nearest integer, ties to even
#pragma omp simd
  for (std::size_t i = 0; i < n; ++i) {
    float v = (x[i] * inverse_scale + kRound) - kRound + zero_point;
    v = std::min(std::max(v, 0.0f), 255.0f);
    q[i] = static_cast<std::uint8_t>(static_cast<std::int32_t>(v));
  }
}

BK_VECTOR_CLONES void bf16_span(const float* x, std::size_t n, std::uint16_t* out) {
#pragma omp simd
  for (std::size_t i = 0; i < n; ++i) {
    std::uint32_t bits = std::bit_cast<std::uint32_t>(x[i]);
    bits += 0x7fffu + ((bits >> 16) & 1u);  // a NaN may come out as inf: the result is garbage either way
    out[i] = static_cast<std::uint16_t>(bits >> 16);
  }
}

// GCC leaves the loops above scalar (min/max) or 128 bits wide (u8 narrowing); these are the AVX-512
// forms, with the same results: cvtps rounds to nearest even as the kRound trick does.
#define BK_AVX512 __attribute__((target("avx512f")))

BK_AVX512 void min_max_avx512(const float* x, std::size_t n, float& lo, float& hi) {
  __m512 a = _mm512_set1_ps(lo), b = _mm512_set1_ps(hi);
  std::size_t i = 0;
  for (; i + 16 <= n; i += 16) {
    const __m512 v = _mm512_loadu_ps(x + i);
    a = _mm512_min_ps(a, v);
    b = _mm512_max_ps(b, v);
  }
  if (i < n) {
    const __mmask16 m = static_cast<__mmask16>((1u << (n - i)) - 1);
    const __m512 v = _mm512_maskz_loadu_ps(m, x + i);
    a = _mm512_mask_min_ps(a, m, a, v);
    b = _mm512_mask_max_ps(b, m, b, v);
  }
  alignas(64) float lanes_lo[16], lanes_hi[16];
  _mm512_store_ps(lanes_lo, a);
  _mm512_store_ps(lanes_hi, b);
  lo = *std::min_element(lanes_lo, lanes_lo + 16), hi = *std::max_element(lanes_hi, lanes_hi + 16);
}

BK_AVX512 inline __m512i quantize_16(__m512 v, __m512 inverse_scale, __m512i zero_point) {
  __m512i i = _mm512_add_epi32(_mm512_cvtps_epi32(_mm512_mul_ps(v, inverse_scale)), zero_point);
  return _mm512_min_epi32(_mm512_max_epi32(i, _mm512_setzero_si512()), _mm512_set1_epi32(255));
}

BK_AVX512 void quantize_avx512(const float* x, std::size_t n, float inverse_scale, std::int32_t zero_point,
                               std::uint8_t* q) {
  const __m512 inv = _mm512_set1_ps(inverse_scale);
  const __m512i zero = _mm512_set1_epi32(zero_point);
  std::size_t i = 0;
  for (; i + 16 <= n; i += 16)
    _mm_storeu_si128(reinterpret_cast<__m128i*>(q + i), _mm512_cvtepi32_epi8(quantize_16(_mm512_loadu_ps(x + i), inv, zero)));
  if (i < n) {
    const __mmask16 m = static_cast<__mmask16>((1u << (n - i)) - 1);
    _mm512_mask_cvtepi32_storeu_epi8(q + i, m, quantize_16(_mm512_maskz_loadu_ps(m, x + i), inv, zero));
  }
}

const bool kAvx512 = __builtin_cpu_supports("avx512f");

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

U8Quantization quantize_u8(const float* x, std::size_t n, std::uint8_t* q) {
  float lo = 0, hi = 0;
  if (n < kMinParallelElements || omp_get_max_threads() == 1) {
    (kAvx512 ? min_max_avx512 : min_max)(x, n, lo, hi);
  } else {
#pragma omp parallel reduction(min : lo) reduction(max : hi)
    {
      const auto threads = static_cast<std::size_t>(omp_get_num_threads());
      const auto t = static_cast<std::size_t>(omp_get_thread_num());
      const std::size_t begin = n * t / threads, end = n * (t + 1) / threads;
      (kAvx512 ? min_max_avx512 : min_max)(x + begin, end - begin, lo, hi);
    }
  }
  U8Quantization quant;
  if (hi > lo) {
    quant.scale = (hi - lo) / 255.0f;
    quant.zero_point = std::clamp(static_cast<std::int32_t>(std::nearbyint(-lo / quant.scale)), 0, 255);
  }
  const float inverse = 1.0f / quant.scale, zero = static_cast<float>(quant.zero_point);
  for_chunks(n, [&](std::size_t begin, std::size_t end) {
    if (kAvx512) quantize_avx512(x + begin, end - begin, inverse, quant.zero_point, q + begin);
    else quantize_span(x + begin, end - begin, inverse, zero, q + begin);
  });
  return quant;
}

void round_to_bf16(const float* x, std::size_t n, std::uint16_t* out) {
  for_chunks(n, [&](std::size_t begin, std::size_t end) { bf16_span(x + begin, end - begin, out + begin); });
}

}  // namespace bertkit::core
