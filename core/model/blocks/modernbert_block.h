#pragma once
// ModernBERT's layer (pre-LayerNorm): attention over attn_norm(h) (layer 0 has no attn_norm: its input
// is the embeddings' own LayerNorm) with the fused Wqkv projection, rotary positions of the layer's
// theta on queries and keys, and a sliding window on the local layers; Wo into the residual; then a
// GeGLU feed-forward over mlp_norm(h) into the residual. Which layers are local, their window and both
// thetas come from config.json (ModelConfig::layer_attention, core/model/families/modernbert_config.cpp).
// Canonical names: encoder.layer.N.{attn_norm, attn.Wqkv, attn.Wo, mlp_norm, mlp.Wi, mlp.Wo}.
#include "core/model/blocks/block.h"
#include "core/model/blocks/rotary_attention.h"
#include "core/model/layer_norm_weights.h"
#include "core/ops/gated_ffn.h"

#include <cstdint>
#include <optional>
#include <span>

namespace bertkit::core {

struct ModernBertBlockTensors {
  std::optional<NormDecl> attention_norm;  // none for layer 0
  LinearDecl qkv, attention_out;
  NormDecl mlp_norm;
  LinearDecl mlp_in, mlp_out;  // mlp_in: [2·intermediate, hidden], its first half activated
};

class ModernBertBlock : public Block {
 public:
  static ModernBertBlockTensors declare(const ModelConfig& config, int index, TensorDecls& decls);
  ModernBertBlock(const ModelConfig& config, const Weights& weights, int index);

  // Wqkv and both Wo are stored packed in a converted file; Wi stays plain (the load splits it in halves).
  void add_packed_to(const Weights& source, Weights& weights) const override;
  void forward(float* hidden, std::span<const std::int64_t> offsets, LayerScratch& scratch,
               const LayerContext& context) const override;

 private:
  ModernBertBlock(const ModelConfig& config, const Weights& weights, int index, const ModernBertBlockTensors& t);

  ModernBertBlockTensors tensors_;
  std::int64_t hidden_size_;
  std::int64_t window_;  // as ScoreModifier::window: -1 on global layers
  std::optional<LayerNormWeights> attention_norm_;
  RotaryAttention attention_;
  LayerNormWeights mlp_norm_;
  GatedFeedForward mlp_;  // accumulates into the residual
};

}  // namespace bertkit::core
