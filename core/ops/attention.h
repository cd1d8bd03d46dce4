#pragma once
// Multi-head scaled dot-product self-attention over packed sequences. Each sequence attends only to
// its own tokens, so there is no padding and no mask: a token's result cannot depend on its neighbours
// in the batch. A relative position bias (MPNet's) is added to the scores inside the kernels, from a
// table of one row per head rather than a [heads, length, length] matrix.
#include "core/ops/buffer.h"

#include <cstdint>
#include <span>
#include <vector>

namespace bertkit::core {

// The type Q·Kᵀ and P·V multiply in (sums and softmax are f32 either way). BF16 is for the reduced
// compute types, whose matmuls already round their inputs; it falls back to F32 on CPUs without
// AVX512-BF16.
enum class AttentionProducts { F32, BF16 };

// A bias added to every head's scaled scores that depends only on the key's index minus the query's:
// head h adds table[h·stride + center + (j − i)] to the score of query i and key j. `center` is at
// least the longest sequence's length − 1, so each query's biases are one contiguous run of the row.
struct RelativeScoreBias {
  const float* table = nullptr;
  std::int64_t stride = 0;
  std::int64_t center = 0;
  // Head h's bias for relative position 0; query i's row starts i floats before it.
  const float* head(int h) const { return table + h * stride + center; }
};

class SelfAttention {
 public:
  // qkv: [tokens, 3·heads·head_dim], each row Q | K | V with heads side by side (the fused projection's
  // output). ctx: [tokens, heads·head_dim] receives softmax(Q·Kᵀ/√head_dim + bias)·V per head. Sequence i
  // is rows offsets[i] .. offsets[i+1]. `bias`: none when null.
  void forward(const float* qkv, std::span<const std::int64_t> offsets, int heads, std::int64_t head_dim,
               float* ctx, AttentionProducts products = AttentionProducts::F32,
               const RelativeScoreBias* bias = nullptr);

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
