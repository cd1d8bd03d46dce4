#pragma once
// One transformer layer (post-LayerNorm, as in BERT): fused Q|K|V projection, self-attention, output
// projection + residual + LayerNorm, feed-forward with the model's activation + residual + LayerNorm.
#include "core/checkpoint/weights.h"
#include "core/model/config.h"
#include "core/model/layer_norm_weights.h"
#include "core/ops/attention.h"
#include "core/ops/buffer.h"
#include "core/ops/linear.h"

#include <cstdint>
#include <span>
#include <vector>

namespace bertkit::core {

// Intermediate activations, shared by all layers and grown to the largest batch seen.
struct LayerScratch {
  FloatBuffer qkv;           // [tokens, 3·hidden]
  FloatBuffer context;       // [tokens, hidden]
  FloatBuffer intermediate;  // [tokens, intermediate_size]
  SelfAttention attention;
};

class EncoderLayer {
 public:
  EncoderLayer(const ModelConfig& config, const Weights& weights, int index);

  // Adds this layer's packed matrices to `weights` (copies), for a converted file to store in place of
  // their plain parts: those that unpack to exactly the parts in `source`, the weights it was built from.
  void add_packed_to(const Weights& source, Weights& weights, int index) const;

  // hidden: [tokens, hidden_size], updated in place; sequences and `bias` as in SelfAttention::forward.
  void forward(float* hidden, std::span<const std::int64_t> offsets, LayerScratch& scratch,
               const RelativeScoreBias* bias = nullptr) const;

 private:
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
