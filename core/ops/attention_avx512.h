#pragma once
// Register-tiled AVX-512 attention of one sequence and one head, for head sizes 32 and 64. oneDNN's
// sgemm spends much of its time packing at these small sizes; this needs only K transposed once.
// x86-64 only; the kernel table (core/ops/kernel_table.h) decides where it runs.
#include <cstdint>

namespace bertkit::core {

// Floats of per-thread scratch one sequence of `length` tokens needs.
std::int64_t attention_avx512_scratch(std::int64_t length, std::int64_t head_dim);

// out[r] = softmax(q[r]·Kᵀ·scale + bias)·V for every token r of one sequence and one head: q, k, v rows
// `stride` floats apart, out rows `out_stride` apart; `bias` null or the head's relative bias at relative
// position 0 (RelativeScoreBias::head, core/ops/attention.h). Keys are transposed once; scores are held
// for 64 queries at a time.
void attention_avx512(const float* q, const float* k, const float* v, std::int64_t stride, std::int64_t length,
                      std::int64_t head_dim, float scale, const float* bias, float* out, std::int64_t out_stride,
                      float* scratch);

}  // namespace bertkit::core
