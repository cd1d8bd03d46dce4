#pragma once
// A SparseEncoder's output: the MLM head's logits over the vocabulary for every token, activated
// (log1p(relu), or log1p twice) and folded into one value per vocabulary id by SpladePooling's max or
// sum. The logits are never held for a whole long input: positions go through the vocabulary
// projection a chunk at a time, each chunk folded into the running max/sum, so memory is one
// vocabulary row per chunk position plus the accumulator, whatever the length.
#include "core/checkpoint/weights.h"
#include "core/model/config.h"
#include "core/model/mlm_head.h"
#include "core/model/sentence_transformer_config.h"
#include "core/model/sparse_head.h"

#include <vector>

namespace bertkit::core {

class SpladeHead : public SparseHead {
 public:
  SpladeHead(const ModelConfig& config, const Weights& weights, SpladePooling pooling);
  SparseVector forward(const EncoderOutput& out, std::size_t seq, std::span<const std::int32_t> ids) override;

 private:
  void fold(std::size_t rows);

  MlmHead head_;
  SpladePooling pooling_;
  std::vector<TokenPosition> positions_;
  std::vector<float> logits_, pooled_;
};

}  // namespace bertkit::core
