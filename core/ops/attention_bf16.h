#pragma once
// The AVX-512 attention kernel with bf16 dot products, for the reduced compute types (bf16 and int8
// weights): Q, K, the probabilities and V are rounded to bf16 (nearest even) and multiplied in pairs by
// AVX512-BF16's dot product, summed in f32; scaling and softmax stay f32. Where the CPU multiplies bf16
// pairs at twice its f32 rate this halves the attention's time, which int8's fast matmuls leave as the
// largest part at long sequences. x86-64 only; the kernel table (core/ops/kernel_table.h) decides
// where it runs (CPUs with AVX512-BF16 and AVX512-BW, head sizes 32 and 64).
#include <cstdint>

namespace bertkit::core {

// Floats of per-thread scratch a call whose queries reach `keys` keys needs.
std::int64_t attention_bf16_scratch(std::int64_t keys, std::int64_t head_dim);

// As attention_avx512 (core/ops/attention_avx512.h), with bf16 products.
struct HeadScores;

void attention_bf16(const float* q, const float* k, const float* v, std::int64_t stride, std::int64_t head_dim,
                    float scale, const HeadScores& head, std::int64_t first, std::int64_t queries, float* out,
                    std::int64_t out_stride, float* scratch);

// out[r][j] = scale · q[r]·k[j] for r < queries and j < keys (q's rows q_stride floats apart, k's k_stride,
// out's out_stride), q and k rounded to bf16 as attention_bf16 rounds them: its scores without their
// softmax (AttentionKernel::products). Scratch: products_bf16_scratch(keys, head_dim) floats.
std::int64_t products_bf16_scratch(std::int64_t keys, std::int64_t head_dim);
void products_bf16(const float* q, std::int64_t q_stride, const float* k, std::int64_t k_stride, std::int64_t queries,
                   std::int64_t keys, std::int64_t head_dim, float scale, float* out, std::int64_t out_stride,
                   float* scratch);

}  // namespace bertkit::core
