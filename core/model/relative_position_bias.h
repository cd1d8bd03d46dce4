#pragma once
// MPNet's relative position bias: T5-style buckets of key index − query index (bidirectional, 32
// buckets, exact up to 8 apart, logarithmic up to 128), each bucket a learned bias per head
// (encoder.relative_attention_bias.weight, [buckets, heads]). The same bias is added to the attention
// scores of every layer, so it is tabulated once per batch: one row per head over the relative
// positions the longest sequence has, which the attention kernels read in place (RelativeScoreBias,
// core/ops/attention.h) instead of a [heads, length, length] matrix per sequence.
#include "core/checkpoint/weights.h"
#include "core/model/config.h"
#include "core/model/tensor_decls.h"
#include "core/ops/attention.h"
#include "core/ops/buffer.h"

#include <cstdint>
#include <vector>

namespace bertkit::core {

// transformers' MPNet buckets every relative position this many ways, whatever
// relative_attention_num_buckets says (its encoder never passes the config value on).
constexpr int kRelativePositionBuckets = 32;

// MPNetEncoder.relative_position_bucket(key − query, num_buckets=32, max_distance=128), computed in
// float32 as transformers computes it (the boundaries of the logarithmic buckets depend on it).
int relative_position_bucket(std::int64_t relative_position);

class RelativePositionBias {
 public:
  // encoder.relative_attention_bias.weight: [config.relative_attention_buckets, heads].
  static TensorDecl declare(const ModelConfig& config, TensorDecls& decls);
  RelativePositionBias(const ModelConfig& config, const Weights& weights);

  // The bias of every head for sequences of up to `longest` tokens, valid until the next call.
  RelativeScoreBias tabulate(std::int64_t longest);

 private:
  int heads_;
  std::vector<float> weights_;  // [buckets, heads]
  FloatBuffer table_;           // [heads, 2·longest − 1]: relative positions −(longest−1) .. longest−1
};

}  // namespace bertkit::core
