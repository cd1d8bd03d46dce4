#include "core/bench/fma_peak.h"

#include "core/ops/cpu_features.h"

#include <omp.h>

#include <chrono>
#include <cstdint>

#if defined(__x86_64__)
#include <immintrin.h>
#endif

namespace bertkit::core {
namespace {

// Twelve independent accumulators hide the FMA latency on two FMA ports. noipa: the compiler must
// neither fold the loop into a constant nor drop a call whose result only feeds the sink (clang, which
// has no noipa, gets noinline; the sink is volatile either way).
#if defined(__clang__)
#define BK_OPAQUE noinline
#else
#define BK_OPAQUE noipa
#endif

#if defined(__x86_64__)
__attribute__((target("avx512f"), BK_OPAQUE)) float fma_avx512(std::int64_t iterations) {
  __m512 acc[12];
  const __m512 b = _mm512_set1_ps(0.999999f), c = _mm512_set1_ps(1e-6f);
  for (int i = 0; i < 12; ++i) acc[i] = _mm512_set1_ps(static_cast<float>(i));
  for (std::int64_t it = 0; it < iterations; ++it) {
#pragma GCC unroll 12
    for (int i = 0; i < 12; ++i) acc[i] = _mm512_fmadd_ps(acc[i], b, c);
  }
  alignas(64) float lanes[16];
  float sum = 0;
  for (int i = 0; i < 12; ++i) {
    _mm512_store_ps(lanes, acc[i]);
    sum += lanes[0];
  }
  return sum;
}

__attribute__((target("avx2,fma"), BK_OPAQUE)) float fma_avx2(std::int64_t iterations) {
  __m256 acc[12];
  const __m256 b = _mm256_set1_ps(0.999999f), c = _mm256_set1_ps(1e-6f);
  for (int i = 0; i < 12; ++i) acc[i] = _mm256_set1_ps(static_cast<float>(i));
  for (std::int64_t it = 0; it < iterations; ++it) {
#pragma GCC unroll 12
    for (int i = 0; i < 12; ++i) acc[i] = _mm256_fmadd_ps(acc[i], b, c);
  }
  alignas(32) float lanes[8];
  float sum = 0;
  for (int i = 0; i < 12; ++i) {
    _mm256_store_ps(lanes, acc[i]);
    sum += lanes[0];
  }
  return sum;
}
#endif

__attribute__((BK_OPAQUE)) float fma_scalar(std::int64_t iterations) {
  float x = 2.0f;
  for (std::int64_t it = 0; it < iterations * 12; ++it) x = x * 0.999999f + 1e-6f;
  return x;
}

// Returns the flops one call performs. The process's path decides (BERTKIT_CPU): the peak of the CPU
// the program runs as.
double run_loop(std::int64_t iterations, volatile float& sink) {
#if defined(__x86_64__)
  const CpuFeatures& cpu = cpu_selection().features;
  if (cpu.avx512f) {
    sink = fma_avx512(iterations);
    return 2.0 * 12 * 16 * static_cast<double>(iterations);
  }
  if (cpu.avx2 && cpu.fma) {
    sink = fma_avx2(iterations);
    return 2.0 * 12 * 8 * static_cast<double>(iterations);
  }
#endif
  sink = fma_scalar(iterations);  // no vector FMA: a scalar figure is still a ceiling
  return 2.0 * 12 * static_cast<double>(iterations);
}

}  // namespace

double measure_f32_fma_peak(int threads, double seconds) {
  using clock = std::chrono::steady_clock;
  volatile float sink = 0;
  // Calibrate on this thread: how many iterations fill the time.
  std::int64_t iterations = 1 << 16;
  for (;;) {
    auto start = clock::now();
    run_loop(iterations, sink);
    double took = std::chrono::duration<double>(clock::now() - start).count();
    if (took > seconds / 8) {
      iterations = static_cast<std::int64_t>(static_cast<double>(iterations) * seconds / took);
      break;
    }
    iterations *= 4;
  }
  double flops = 0;
  auto start = clock::now();
#pragma omp parallel num_threads(threads) reduction(+ : flops)
  {
    volatile float local = 0;
    flops += run_loop(iterations, local);
  }
  double took = std::chrono::duration<double>(clock::now() - start).count();
  return flops / took / 1e9;
}

}  // namespace bertkit::core
