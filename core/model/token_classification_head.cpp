#include "core/model/token_classification_head.h"
#include "core/model/linear_weights.h"

namespace bertkit::core {

// One label per token: a plain Linear in every family (after ModernBERT's prediction head), whatever its
// sequence classifier looks like.
LinearDecl TokenClassificationHead::declare(const ModelConfig& config, TensorDecls& decls) {
  PredictionHead::declare(config, decls);
  return decls.linear("classifier.out", config.num_labels, config.hidden_size);
}

TokenClassificationHead::TokenClassificationHead(const ModelConfig& config, const Weights& weights) {
  TensorDecls decls;
  classifier_ = linear_layer(weights, declare(config, decls));
  prediction_head_ = PredictionHead::build(config, weights);
}

void TokenClassificationHead::forward(const EncoderOutput& out, std::vector<float>& logits) {
  const std::int64_t tokens = out.tokens();
  logits.resize(static_cast<std::size_t>(tokens * num_labels()));
  const float* rows = out.last().data();
  if (prediction_head_) rows = prediction_head_->forward(rows, tokens);
  classifier_.forward(rows, tokens, logits.data());
}

}  // namespace bertkit::core
