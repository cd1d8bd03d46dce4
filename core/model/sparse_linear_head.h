#pragma once
// BGE-M3's lexical weights (FlagEmbedding's sparse_linear.pt, a Linear(hidden, 1)): every position's
// weight relu(h·w + b), the maximum per token id, the ids of the tokenizer's cls, eos, pad and unk
// tokens dropped, only weights > 0 kept.
#include "core/checkpoint/weights.h"
#include "core/model/sparse_head.h"

#include <cstdint>
#include <vector>

namespace bertkit::core {

// Tensor names of the head in Weights (and in a converted file).
inline constexpr const char* kSparseLinearWeight = "sparse_linear.weight";  // [1, hidden]
inline constexpr const char* kSparseLinearBias = "sparse_linear.bias";      // [1]

class SparseLinearHead : public SparseHead {
 public:
  SparseLinearHead(const Weights& weights, std::int64_t hidden, std::vector<std::int32_t> dropped_ids);
  SparseVector forward(const EncoderOutput& out, std::size_t seq, std::span<const std::int32_t> ids) override;

 private:
  std::vector<float> weight_;
  float bias_ = 0;
  std::vector<std::int32_t> dropped_;
};

}  // namespace bertkit::core
