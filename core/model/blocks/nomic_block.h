#pragma once
// NomicBERT's layer (nomic-embed-text, nomic-bert-2048, arctic-embed-m-long): BERT's post-LayerNorm
// order over other parts. Attention through one fused Wqkv (all query heads, then key, then value),
// rotary positions on queries and keys (rotary_emb_base over rotary_emb_fraction of each head, NeoX
// halves or interleaved), out_proj, then norm1 over the residual sum; a gated feed-forward
// fc2(fc11(x) · act(fc12(x))) (fc12 is the gate: SiLU for swiglu, GELU for geglu), then norm2.
// Biases where config.json has them (qkv_proj_bias covers Wqkv and out_proj; mlp_fc1_bias, mlp_fc2_bias).
// Canonical names: encoder.layer.N.{attn.Wqkv, attn.out_proj, norm1, mlp.fc11, mlp.fc12, mlp.fc2, norm2}.
#include "core/model/blocks/block.h"
#include "core/model/blocks/rotary_attention.h"
#include "core/model/layer_norm_weights.h"
#include "core/ops/gated_ffn.h"

#include <cstdint>
#include <span>

namespace bertkit::core {

struct NomicBlockTensors {
  LinearDecl qkv, attention_out;
  NormDecl attention_norm;
  LinearDecl up, gate, down;  // fc11, fc12, fc2
  NormDecl mlp_norm;
};

class NomicBlock : public Block {
 public:
  static NomicBlockTensors declare(const ModelConfig& config, int index, TensorDecls& decls);
  NomicBlock(const ModelConfig& config, const Weights& weights, int index);

  // Its five matrices (Wqkv, out_proj, fc11, fc12, fc2) are stored packed in a converted file, each under its own name.
  void add_packed_to(const Weights& source, Weights& weights) const override;
  void forward(float* hidden, std::span<const std::int64_t> offsets, LayerScratch& scratch,
               const LayerContext& context) const override;

 private:
  NomicBlock(const ModelConfig& config, const Weights& weights, int index, const NomicBlockTensors& t);

  NomicBlockTensors tensors_;
  RotaryAttention attention_;
  LayerNormWeights attention_norm_, mlp_norm_;
  GatedFeedForward mlp_;  // accumulates into the residual
};

}  // namespace bertkit::core
