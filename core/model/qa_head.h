#pragma once
// Extractive question answering: qa_outputs maps every token (through ModernBERT's prediction head
// first) to a start and an end logit.
#include "core/checkpoint/weights.h"
#include "core/model/config.h"
#include "core/model/tensor_decls.h"
#include "core/model/encoder.h"
#include "core/model/prediction_head.h"
#include "core/ops/linear.h"

#include <optional>
#include <vector>

namespace bertkit::core {

struct SpanLogits {
  std::vector<float> start;  // one per token, rows as in EncoderOutput (sequence i at offsets[i] ..)
  std::vector<float> end;
};

class QaHead {
 public:
  static LinearDecl declare(const ModelConfig& config, TensorDecls& decls);
  QaHead(const ModelConfig& config, const Weights& weights);

  void forward(const EncoderOutput& out, SpanLogits& logits);

 private:
  std::optional<PredictionHead> prediction_head_;  // ModernBERT's, on every token
  Linear outputs_;
  std::vector<float> both_;  // [tokens, 2]
};

}  // namespace bertkit::core
