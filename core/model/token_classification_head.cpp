#include "core/model/token_classification_head.h"
#include "core/model/linear_weights.h"

namespace bertkit::core {

TokenClassificationHead::TokenClassificationHead(const ModelConfig& config, const Weights& weights) {
  const std::int64_t h = config.hidden_size, labels = config.num_labels;
  classifier_ = Linear(linear_weight(weights, "classifier.out.weight", labels, h),
                       weights.require("classifier.out.bias", {labels}).f32(), labels, h);
}

void TokenClassificationHead::forward(const EncoderOutput& out, std::vector<float>& logits) {
  const std::int64_t tokens = out.tokens();
  logits.resize(static_cast<std::size_t>(tokens * num_labels()));
  classifier_.forward(out.last().data(), tokens, logits.data());
}

}  // namespace bertkit::core
