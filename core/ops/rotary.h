#pragma once
// Rotary position embedding (RoPE) of queries and keys over packed sequences, as transformers computes
// it: inv_freq[i] = 1 / theta^(2i / rotary_dim) and the angles position · inv_freq[i] in float32, their
// cosines and sines rounded to float32, then x·cos + rotate(x)·sin. Positions restart at 0 in each
// sequence. Only the first rotary_dim floats of each head are rotated (a rotary fraction below 1, as
// partial_rotary_factor); the rest pass through.
#include "core/ops/kernel_table.h"

#include <cstdint>
#include <span>
#include <vector>

namespace bertkit::core {

// Which floats of a head rotate together by angle i.
enum class RotaryLayout {
  Half,         // i and i + rotary_dim/2: GPT-NeoX's rotate_half (Llama, ModernBERT, NomicBERT)
  Interleaved,  // 2i and 2i+1: GPT-J's rotate_every_two
};

struct RotarySpec {
  std::int64_t head_dim = 0;
  std::int64_t rotary_dim = 0;  // even, at most head_dim
  float theta = 10000.0f;       // the base (rope_theta; ModernBERT: 160000 global, 10000 local)
  RotaryLayout layout = RotaryLayout::Half;
};

class RotaryEmbedding {
 public:
  // A runtime error unless 0 < rotary_dim <= head_dim, rotary_dim even, theta > 0.
  explicit RotaryEmbedding(const RotarySpec& spec);

  // Rotates, in place, the first `vectors` head vectors of every row of x (rows `stride` floats apart,
  // vectors head_dim apart): row t of sequence s (rows offsets[s] .. offsets[s+1]) at position
  // t − offsets[s]. For the fused projection's [tokens, Q | K | V]: apply(qkv, 3·hidden, 2·heads, offsets)
  // rotates Q and K. Runs `table`'s kernels.
  void apply(float* x, std::int64_t stride, std::int64_t vectors, std::span<const std::int64_t> offsets,
             const KernelTable& table = kernels());

  // 1 / theta^(2i / rotary_dim), i < rotary_dim/2, in float32 as transformers rounds it.
  std::span<const float> inverse_frequencies() const { return inverse_frequencies_; }

 private:
  // Tabulates the cosines and sines of positions up to `positions` (grow-only).
  void tabulate(std::int64_t positions);

  RotarySpec spec_;
  std::vector<float> inverse_frequencies_;
  std::vector<float> cos_, sin_;  // [positions, rotary_dim/2]
  std::int64_t positions_ = 0;
};

}  // namespace bertkit::core
