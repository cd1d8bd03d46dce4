#pragma once
// ModernBERT's prediction head (ModernBertPredictionHead): dense -> activation (classifier_activation)
// -> LayerNorm, hidden to hidden, under canonical head.dense and head.norm, between the encoder and the
// sequence classifier (on the pooled row), the token classifier and the span classifier (on every
// token). Families without one (FamilySpec::prediction_head false) declare and build nothing.
#include "core/checkpoint/weights.h"
#include "core/model/config.h"
#include "core/model/layer_norm_weights.h"
#include "core/model/tensor_decls.h"
#include "core/ops/buffer.h"
#include "core/ops/linear.h"

#include <cstdint>
#include <optional>

namespace bertkit::core {

struct PredictionHeadTensors {
  LinearDecl dense;
  NormDecl norm;
};

class PredictionHead {
 public:
  static std::optional<PredictionHeadTensors> declare(const ModelConfig& config, TensorDecls& decls);
  // The model's head, or nullopt where its family has none.
  static std::optional<PredictionHead> build(const ModelConfig& config, const Weights& weights);

  // rows: [n, hidden] -> [n, hidden], in a buffer of the head's (valid until the next call).
  const float* forward(const float* rows, std::int64_t n);

 private:
  PredictionHead(const ModelConfig& config, const Weights& weights, const PredictionHeadTensors& tensors);
  Linear dense_;  // activation fused
  LayerNormWeights norm_;
  FloatBuffer out_;
};

}  // namespace bertkit::core
