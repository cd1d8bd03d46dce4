#pragma once
// Token classification: one Linear from every token's last hidden state (through ModernBERT's
// prediction head first) to the labels' logits. Every other family's token head is that plain classifier (dropout is identity at inference), whatever its
// sequence classifier looks like.
#include "core/checkpoint/weights.h"
#include "core/model/config.h"
#include "core/model/tensor_decls.h"
#include "core/model/encoder.h"
#include "core/model/prediction_head.h"
#include "core/ops/linear.h"

#include <cstdint>
#include <optional>
#include <vector>

namespace bertkit::core {

class TokenClassificationHead {
 public:
  static LinearDecl declare(const ModelConfig& config, TensorDecls& decls);
  TokenClassificationHead(const ModelConfig& config, const Weights& weights);

  // logits: [out.tokens(), num_labels], raw; rows as in EncoderOutput (sequence i from offsets[i]).
  void forward(const EncoderOutput& out, std::vector<float>& logits);

  std::int64_t num_labels() const { return classifier_.out_features(); }

 private:
  std::optional<PredictionHead> prediction_head_;  // ModernBERT's, on every token
  Linear classifier_;
};

}  // namespace bertkit::core
