#pragma once
// Vector math for the loops oneDNN does not run for us (LayerNorm, softmax, attention glue).
// The project is built for plain x86-64, so hot loops are compiled several times and the best version
// for the running CPU is picked at load time (GCC function multi-versioning).
#include <bit>
#include <cstdint>

#if defined(__GNUC__) && defined(__x86_64__) && !defined(__clang__)
#define BK_VECTOR_CLONES __attribute__((target_clones("avx512f", "avx2", "default")))
#else
#define BK_VECTOR_CLONES
#endif

namespace bertkit::core {

// Cephes' expf for x <= 0: x = n·ln 2 + r (ln 2 in two parts, so r is exact), e^r by a polynomial in r,
// then scaled by 2^n. Shared by the scalar form below and the AVX-512 kernels.
namespace exp_constants {
constexpr float kLowest = -87.0f;  // below it e^x is no longer a normal float
constexpr float kLog2e = 1.44269504088896341f;
constexpr float kLn2High = 0.693359375f, kLn2Low = -2.12194440e-4f;
// e^r ≈ 1 + r + r²·(((((p0·r + p1)·r + p2)·r + p3)·r + p4)·r + p5)
constexpr float kPolynomial[6] = {1.9875691500e-4f, 1.3981999507e-3f, 8.3334519073e-3f,
                                  4.1665795894e-2f, 1.6666665459e-1f, 5.0000001201e-1f};
}  // namespace exp_constants

// e^x for x <= 0 within 2 ulp, written without branches or library calls so that `#pragma omp simd`
// loops vectorise it. Inputs below -87 give a tiny positive number rather than 0, which no softmax can
// tell apart.
inline float exp_nonpositive(float x) {
  using namespace exp_constants;
  x = x < kLowest ? kLowest : x;
  constexpr float kRound = 12582912.0f;  // 1.5 * 2^23: adding it rounds to the nearest integer
  float n = (x * kLog2e + kRound) - kRound;
  float r = x - n * kLn2High;
  r = r - n * kLn2Low;
  float p = kPolynomial[0];
  for (int i = 1; i < 6; ++i) p = p * r + kPolynomial[i];
  p = p * r * r + r + 1.0f;
  auto scale = std::bit_cast<float>(static_cast<std::uint32_t>(static_cast<std::int32_t>(n) + 127) << 23);
  return p * scale;
}

}  // namespace bertkit::core
