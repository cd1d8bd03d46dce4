#pragma once
// Every compiled variant of bertkit's own CPU kernels, defined beside their code (softmax.cpp,
// layer_norm.cpp, rms_norm.cpp, rotary.cpp, reduced_activations.cpp, int8_epilogue.cpp, activations.cpp,
// disentangled_terms.cpp, attention_avx512.cpp, attention_bf16.cpp). Which one runs is decided in one
// place only: the kernel table (core/ops/kernel_table.h).
#include "core/ops/simd.h"

#include <cstddef>
#include <cstdint>

namespace bertkit::core {

// Softmax of one row in place (softmax.h).
extern const VectorVariants<void(float* x, std::int64_t n)> softmax_row_variants;
// LayerNorm of one row x into y, which may be x (layer_norm.h).
extern const VectorVariants<void(const float* x, float* y, std::int64_t n, const float* gamma, const float* beta,
                                 float eps)>
    layer_norm_row_variants;
// RMSNorm of one row in place (rms_norm.h).
extern const VectorVariants<void(float* x, std::int64_t n, const float* gamma, float eps)> rms_norm_row_variants;
// Rotary position embedding of one token's first `vectors` head vectors (head_dim floats apart) in place,
// by the angles whose cosines and sines are cos, sin [half] (rotary.h): NeoX's halves or GPT-J's pairs.
using RotaryRow = void(float* x, std::int64_t vectors, std::int64_t head_dim, std::int64_t half, const float* cos,
                       const float* sin);
extern const VectorVariants<RotaryRow> rotary_half_row_variants;
extern const VectorVariants<RotaryRow> rotary_interleaved_row_variants;
// The reduced types' activations (reduced_activations.h): max |x|, x · inverse_scale rounded to s8,
// x rounded to bf16.
extern const VectorVariants<float(const float* x, std::size_t n)> max_abs_variants;
extern const VectorVariants<void(const float* x, std::size_t n, float inverse_scale, std::int8_t* q)>
    quantize_s8_variants;
extern const VectorVariants<void(const float* x, std::size_t n, std::uint16_t* out)> round_to_bf16_variants;
// One row of int8's epilogue: y = p·s + b, y += p·s + b or y = (p·s + b) ⊙ m, by `output` (int8_epilogue.cpp;
// b and m may be null where not used).
extern const VectorVariants<void(const float* p, float s, const float* b, const float* m, float* y, std::int64_t n,
                                 int output)>
    int8_epilogue_row_variants;
// An activation (an Eltwise, as int) over a row in place (activations.h).
extern const VectorVariants<void(float* x, std::int64_t n, int f)> activation_row_variants;

// DeBERTa's disentangled terms added to a tile of scores (disentangled_terms.h).
struct DisentangledPlanes;
using DisentangledTermsRows = void(const DisentangledPlanes& planes, std::int64_t query, std::int64_t rows,
                                   std::int64_t key, std::int64_t keys, float* scores, std::int64_t stride);
extern const VectorVariants<DisentangledTermsRows> disentangled_terms_variants;

struct HeadScores;

// A register-tiled attention kernel of a block of queries of one sequence and one head
// (attention_avx512.h, attention_bf16.h); `scores`: the sequence's length and the head's score modifier
// (core/ops/attention_scores.h).
struct AttentionKernel {
  std::int64_t (*scratch)(std::int64_t keys, std::int64_t head_dim);  // floats per thread
  void (*run)(const float* q, const float* k, const float* v, std::int64_t stride, std::int64_t head_dim,
              float scale, const HeadScores& scores, std::int64_t first, std::int64_t queries, float* out,
              std::int64_t out_stride, float* scratch);
  // The same products without the softmax, of any two sets of rows (DeBERTa's queries and keys with its
  // relative embeddings): out[r][j] = scale · q[r]·k[j], r < queries, j < keys. Out's rows must hold keys
  // rounded up to 32 floats; the padding gets zeros. Null where they would not outrun oneDNN's sgemm.
  std::int64_t (*products_scratch)(std::int64_t keys, std::int64_t head_dim);  // floats
  void (*products)(const float* q, std::int64_t q_stride, const float* k, std::int64_t k_stride, std::int64_t queries,
                   std::int64_t keys, std::int64_t head_dim, float scale, float* out, std::int64_t out_stride,
                   float* scratch);
};

}  // namespace bertkit::core
