#include "core/model/mlm_head.h"
#include "core/model/family_spec.h"
#include "core/model/linear_weights.h"

namespace bertkit::core {

MlmHeadTensors MlmHead::declare(const ModelConfig& config, TensorDecls& decls) {
  const std::int64_t h = config.hidden_size;
  const std::int64_t width = config.family->mlm.embedding_width && config.embedding_size > 0 ? config.embedding_size : h;
  MlmHeadTensors t;
  const ModuleBiases& b = config.biases;
  t.transform = decls.linear("mlm.transform.dense", width, h, false, b.head);
  t.norm = decls.layer_norm("mlm.transform.LayerNorm", width, b.norm);
  t.decoder = decls.linear("mlm.decoder", config.vocab_size, width, false, b.decoder);
  return t;
}

MlmHead::MlmHead(const ModelConfig& config, const Weights& weights) {
  TensorDecls decls;
  const MlmHeadTensors t = declare(config, decls);
  const MlmHeadSpec& spec = config.family->mlm;
  const Eltwise activation = config.head_activation ? eltwise_for(*config.head_activation)
                             : spec.activation  ? *spec.activation
                                                : eltwise_for(config.hidden_act);
  transform_ = linear_layer(weights, t.transform, activation);
  norm_ = LayerNormWeights(weights, t.norm, config.layer_norm_eps);
  decoder_ = linear_layer(weights, t.decoder);
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
