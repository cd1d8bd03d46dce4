#pragma once
// Register-tiled AVX-512 attention of one sequence and one head, for head sizes 32 and 64. oneDNN's
// sgemm spends much of its time packing at these small sizes; this needs only K transposed once.
// x86-64 only; the kernel table (core/ops/kernel_table.h) decides where it runs.
#include <cstdint>

namespace bertkit::core {

// Floats of per-thread scratch a call whose queries reach `keys` keys needs.
std::int64_t attention_avx512_scratch(std::int64_t keys, std::int64_t head_dim);

struct HeadScores;

// out[r] = softmax(modified q[r]·Kᵀ·scale)·V for the tokens r = first .. first+queries of one sequence
// (head.length tokens) and one head: q, k, v, out point at the sequence's first row, q, k, v rows
// `stride` floats apart, out rows `out_stride` apart; `head`: the score modifier
// (core/ops/attention_scores.h). The keys the queries reach are transposed once; scores are held for
// 64 queries at a time, over the keys those queries' window reaches.
void attention_avx512(const float* q, const float* k, const float* v, std::int64_t stride, std::int64_t head_dim,
                      float scale, const HeadScores& head, std::int64_t first, std::int64_t queries, float* out,
                      std::int64_t out_stride, float* scratch);

}  // namespace bertkit::core
