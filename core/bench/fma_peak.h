#pragma once
// The machine's f32 ceiling: the rate of a tight loop of independent vector FMAs (AVX-512 where the
// process's CPU path has it, else AVX2: core/ops/cpu_features.h), measured on every thread of an
// OpenMP team of `threads`.
namespace bertkit::core {

// GFLOP/s (an FMA counts 2) summed over the threads, after about `seconds` of work.
double measure_f32_fma_peak(int threads, double seconds = 0.25);

}  // namespace bertkit::core
