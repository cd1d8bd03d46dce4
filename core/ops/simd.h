#pragma once
// Vector math for the loops oneDNN does not run for us (LayerNorm, softmax, attention glue).
// The project is built for plain x86-64, so hot loops are compiled once per path of
// core/ops/cpu_features.h (VectorClones below) and the kernel table (core/ops/kernel_table.h) picks one
// at run time: like GCC's target_clones, but a lower path can be forced (BERTKIT_CPU).
#include "core/ops/cpu_features.h"

#include <bit>
#include <cstdint>

// Only x86-64 has variants beyond the portable one; elsewhere their code is not compiled at all.
#if defined(__x86_64__)
#define BK_X86_64 1
#define BK_TARGET_AVX2 __attribute__((target("avx2")))
#define BK_TARGET_AVX512 __attribute__((target("avx512f")))
#else
#define BK_X86_64 0
#endif

namespace bertkit::core {

// One vector loop's compiled variants, one per path.
template <typename Signature>
struct VectorVariants;
template <typename R, typename... A>
struct VectorVariants<R(A...)> {
  using Function = R (*)(A...);
  Function portable;
#if BK_X86_64
  Function avx2;
  Function avx512;
#endif
  Function on(CpuPath path) const {
#if BK_X86_64
    if (path == CpuPath::Avx512) return avx512;
    if (path == CpuPath::Avx2) return avx2;
#endif
    (void)path;
    return portable;
  }
};

// VectorClones<body>::variants: `body`, an always_inline function, inlined into one function per path,
// each compiled (and its loops vectorised) for that path's instruction set.
template <auto& Body>
struct VectorClones;
template <typename R, typename... A, R (&Body)(A...)>
struct VectorClones<Body> {
  static R portable(A... a) { return Body(a...); }
#if BK_X86_64
  BK_TARGET_AVX2 static R avx2(A... a) { return Body(a...); }
  BK_TARGET_AVX512 static R avx512(A... a) { return Body(a...); }
  static constexpr VectorVariants<R(A...)> variants{portable, avx2, avx512};
#else
  static constexpr VectorVariants<R(A...)> variants{portable};
#endif
};

// For the bodies of VectorClones.
#define BK_VECTOR_BODY [[gnu::always_inline]] inline

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
// loops vectorise it. Inputs below -87 (a masked score's −∞ among them) give exactly 0, as torch's
// softmax gives a masked key: the e^-87 that the clamp would leave, once divided by the sum, is a
// subnormal, and Intel cores take a microcode assist on every product with one (a sliding-window
// layer's masked keys made ModernBERT's attention 7× slower on AVX-512).
inline float exp_nonpositive(float x) {
  using namespace exp_constants;
  const bool underflows = x < kLowest;
  x = underflows ? kLowest : x;
  constexpr float kRound = 12582912.0f;  // 1.5 * 2^23: adding it rounds to the nearest integer
  float n = (x * kLog2e + kRound) - kRound;
  float r = x - n * kLn2High;
  r = r - n * kLn2Low;
  float p = kPolynomial[0];
  for (int i = 1; i < 6; ++i) p = p * r + kPolynomial[i];
  p = p * r * r + r + 1.0f;
  auto scale = std::bit_cast<float>(static_cast<std::uint32_t>(static_cast<std::int32_t>(n) + 127) << 23);
  return underflows ? 0.0f : p * scale;
}

}  // namespace bertkit::core
