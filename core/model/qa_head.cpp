#include "core/model/qa_head.h"
#include "core/model/linear_weights.h"

namespace bertkit::core {

QaHead::QaHead(const ModelConfig& config, const Weights& weights) {
  const std::int64_t h = config.hidden_size;
  outputs_ = Linear(linear_weight(weights, "qa_outputs.weight", 2, h), weights.require("qa_outputs.bias", {2}).f32(),
                    2, h);
}

void QaHead::forward(const EncoderOutput& out, SpanLogits& logits) {
  const std::int64_t tokens = out.tokens();
  both_.resize(static_cast<std::size_t>(tokens * 2));
  outputs_.forward(out.last().data(), tokens, both_.data());
  logits.start.resize(static_cast<std::size_t>(tokens));
  logits.end.resize(static_cast<std::size_t>(tokens));
  for (std::int64_t t = 0; t < tokens; ++t) {
    logits.start[t] = both_[2 * t];
    logits.end[t] = both_[2 * t + 1];
  }
}

}  // namespace bertkit::core
