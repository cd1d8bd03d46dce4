#include "core/model/prediction_head.h"

#include "core/model/family_spec.h"
#include "core/model/linear_weights.h"

namespace bertkit::core {

std::optional<PredictionHeadTensors> PredictionHead::declare(const ModelConfig& config, TensorDecls& decls) {
  if (!config.family->prediction_head) return std::nullopt;
  const std::int64_t h = config.hidden_size;
  return PredictionHeadTensors{decls.linear("head.dense", h, h, false, config.biases.head),
                               decls.layer_norm("head.norm", h, config.biases.norm)};
}

std::optional<PredictionHead> PredictionHead::build(const ModelConfig& config, const Weights& weights) {
  TensorDecls decls;
  auto tensors = declare(config, decls);
  if (!tensors) return std::nullopt;
  return PredictionHead(config, weights, *tensors);
}

PredictionHead::PredictionHead(const ModelConfig& config, const Weights& weights, const PredictionHeadTensors& t)
    : dense_(linear_layer(weights, t.dense, eltwise_for(config.head_activation.value_or(config.hidden_act)))),
      norm_(weights, t.norm, config.layer_norm_eps) {}

const float* PredictionHead::forward(const float* rows, std::int64_t n) {
  float* out = out_.reserve(static_cast<std::size_t>(n * dense_.out_features()));
  dense_.forward(rows, n, out);
  norm_.apply(out, n);
  return out;
}

}  // namespace bertkit::core
