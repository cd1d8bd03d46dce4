#pragma once
// BERT's layer (post-LayerNorm), the block of every family so far (BERT, DistilBERT, ELECTRA, RoBERTa,
// XLM-R, CamemBERT, MPNet): fused Q|K|V projection, self-attention (with the context's score bias),
// output projection + residual + LayerNorm, feed-forward with the model's activation + residual +
// LayerNorm. Its tensors are BERT's canonical layer names, encoder.layer.N.*; a family that spells them
// otherwise says so in its name rows.
#include "core/model/blocks/block.h"
#include "core/model/layer_norm_weights.h"
#include "core/ops/linear.h"

#include <cstdint>
#include <span>

namespace bertkit::core {

// Layer N's tensors, declared once (BertBlock::declare) and read from what the declaration returns.
struct BertBlockTensors {
  LinearDecl query, key, value, attention_out;
  NormDecl attention_norm;
  LinearDecl ffn_in, ffn_out;
  NormDecl output_norm;
};

class BertBlock : public Block {
 public:
  static BertBlockTensors declare(const ModelConfig& config, int index, TensorDecls& decls);
  BertBlock(const ModelConfig& config, const Weights& weights, int index);

  void add_packed_to(const Weights& source, Weights& weights) const override;
  void forward(float* hidden, std::span<const std::int64_t> offsets, LayerScratch& scratch,
               const LayerContext& context) const override;

  // rows × [Q | K | V] of other rows through the layer's own projections (biases included): DeBERTa
  // puts its relative embeddings through them.
  void project_qkv(const float* x, std::int64_t rows, float* qkv) const { qkv_.forward(x, rows, qkv); }

 protected:
  // What modifies the attention scores of this batch, given its Q|K|V rows (qkv: [tokens, 3·hidden]):
  // BERT's layer adds the context's score bias (MPNet's); a layer with other terms overrides this. The
  // modifier may point into `scratch` and into the block, until the next call.
  virtual ScoreModifier score_modifier(const float* qkv, std::span<const std::int64_t> offsets, LayerScratch& scratch,
                                       const LayerContext& context) const;
  int heads() const { return heads_; }
  std::int64_t hidden_size() const { return hidden_size_; }
  AttentionProducts attention_products() const { return attention_products_; }

 private:
  int index_;
  BertBlockTensors tensors_;
  std::int64_t hidden_size_, intermediate_size_;
  int heads_;
  Linear qkv_;        // Q, K and V weights stacked: one matmul instead of three
  Linear attention_out_;  // accumulates into the residual
  Linear ffn_in_;     // with the activation fused
  Linear ffn_out_;    // accumulates into the residual
  LayerNormWeights attention_norm_, output_norm_;
  AttentionProducts attention_products_;  // bf16 when the weights are reduced
};

}  // namespace bertkit::core
