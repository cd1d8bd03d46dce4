#pragma once
// Multi-head scaled dot-product self-attention over packed sequences. Each sequence attends only to
// its own tokens, so there is no padding and no mask: a token's result cannot depend on its neighbours
// in the batch.
#include "core/ops/buffer.h"

#include <cstdint>
#include <span>
#include <vector>

namespace bertkit::core {

// The type Q·Kᵀ and P·V multiply in (sums and softmax are f32 either way). BF16 is for the reduced
// compute types, whose matmuls already round their inputs; it falls back to F32 on CPUs without
// AVX512-BF16.
enum class AttentionProducts { F32, BF16 };

class SelfAttention {
 public:
  // qkv: [tokens, 3·heads·head_dim], each row Q | K | V with heads side by side (the fused projection's
  // output). ctx: [tokens, heads·head_dim] receives softmax(Q·Kᵀ/√head_dim)·V per head. Sequence i is
  // rows offsets[i] .. offsets[i+1].
  void forward(const float* qkv, std::span<const std::int64_t> offsets, int heads, std::int64_t head_dim,
               float* ctx, AttentionProducts products = AttentionProducts::F32);

 private:
  struct Task {
    std::int64_t first_row;  // of the sequence
    std::int64_t length;     // of the sequence
    std::int64_t query;      // first query row of this block, relative to the sequence
    int head;
  };
  std::vector<Task> tasks_;
  std::vector<FloatBuffer> scratch_;  // per thread: a score tile (and transposed keys)
};

}  // namespace bertkit::core
