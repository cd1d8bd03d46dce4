#include "core/model/qa_head.h"
#include "core/model/linear_weights.h"

namespace bertkit::core {

LinearDecl QaHead::declare(const ModelConfig& config, TensorDecls& decls) {
  PredictionHead::declare(config, decls);
  return decls.linear("qa_outputs", 2, config.hidden_size);  // start and end logits
}

QaHead::QaHead(const ModelConfig& config, const Weights& weights) {
  TensorDecls decls;
  outputs_ = linear_layer(weights, declare(config, decls));
  prediction_head_ = PredictionHead::build(config, weights);
}

void QaHead::forward(const EncoderOutput& out, SpanLogits& logits) {
  const std::int64_t tokens = out.tokens();
  both_.resize(static_cast<std::size_t>(tokens * 2));
  const float* rows = out.last().data();
  if (prediction_head_) rows = prediction_head_->forward(rows, tokens);
  outputs_.forward(rows, tokens, both_.data());
  logits.start.resize(static_cast<std::size_t>(tokens));
  logits.end.resize(static_cast<std::size_t>(tokens));
  for (std::int64_t t = 0; t < tokens; ++t) {
    logits.start[t] = both_[2 * t];
    logits.end[t] = both_[2 * t + 1];
  }
}

}  // namespace bertkit::core
