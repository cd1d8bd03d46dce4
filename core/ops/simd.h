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

// e^x for x <= 0 within 2 ulp (Cephes' expf polynomial), written without branches or library calls
// so that `#pragma omp simd` loops vectorise it. Inputs below -87 give a tiny positive number rather
// than 0, which no softmax can tell apart.
inline float exp_nonpositive(float x) {
  x = x < -87.0f ? -87.0f : x;
  constexpr float kLog2e = 1.44269504088896341f;
  constexpr float kRound = 12582912.0f;  // 1.5 * 2^23: adding it rounds to the nearest integer
  float n = (x * kLog2e + kRound) - kRound;
  float r = x - n * 0.693359375f;
  r = r - n * -2.12194440e-4f;
  float p = 1.9875691500e-4f;
  p = p * r + 1.3981999507e-3f;
  p = p * r + 8.3334519073e-3f;
  p = p * r + 4.1665795894e-2f;
  p = p * r + 1.6666665459e-1f;
  p = p * r + 5.0000001201e-1f;
  p = p * r * r + r + 1.0f;
  auto scale = std::bit_cast<float>(static_cast<std::uint32_t>(static_cast<std::int32_t>(n) + 127) << 23);
  return p * scale;
}

}  // namespace bertkit::core
