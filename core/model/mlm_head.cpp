#include "core/model/mlm_head.h"
#include "core/model/family_spec.h"
#include "core/model/linear_weights.h"

namespace bertkit::core {

MlmHead::MlmHead(const ModelConfig& config, const Weights& weights) {
  const std::int64_t h = config.hidden_size, v = config.vocab_size;
  const MlmHeadSpec& spec = config.family->mlm;
  const std::int64_t width = spec.embedding_width && config.embedding_size > 0 ? config.embedding_size : h;
  const Eltwise activation = spec.activation ? *spec.activation : eltwise_for(config.hidden_act);
  transform_ = Linear(linear_weight(weights, "mlm.transform.dense.weight", width, h),
                      weights.require("mlm.transform.dense.bias", {width}).f32(), width, h, activation);
  norm_ = LayerNormWeights(weights, "mlm.transform.LayerNorm", width, config.layer_norm_eps);
  decoder_ = Linear(linear_weight(weights, "mlm.decoder.weight", v, width),
                    weights.require("mlm.decoder.bias", {v}).f32(), v, width);
}

void MlmHead::forward(const EncoderOutput& out, std::span<const TokenPosition> positions, std::vector<float>& logits) {
  const auto n = static_cast<std::int64_t>(positions.size());
  const std::int64_t width = transform_.out_features();
  const float* rows = gather_rows(out, positions, rows_);
  float* transformed = transformed_.reserve(static_cast<std::size_t>(n * width));
  transform_.forward(rows, n, transformed);
  norm_.apply(transformed, n);
  logits.resize(static_cast<std::size_t>(n * vocab_size()));
  decoder_.forward(transformed, n, logits.data());
}

}  // namespace bertkit::core
