#pragma once
// The attention half that rotary layers share (ModernBERT's, NomicBERT's): the fused Wqkv projection,
// rotary positions on queries and keys (restarting in each sequence), attention with the layer's
// score modifier (a sliding window or none), and the output projection added into the residual.
#include "core/checkpoint/weights.h"
#include "core/model/blocks/block.h"
#include "core/model/packed_linears.h"
#include "core/model/tensor_decls.h"
#include "core/ops/linear.h"
#include "core/ops/rotary.h"

#include <cstdint>
#include <span>
#include <vector>

namespace bertkit::core {

class RotaryAttention {
 public:
  RotaryAttention(const Weights& weights, const LinearDecl& qkv, const LinearDecl& out, int heads,
                  const RotarySpec& rotary);

  // hidden += out(attention(rotary(qkv(in)))), then normalised by `norm` when given (a post-norm block's;
  // Linear::forward_normed). `in` may be scratch.context: it is read before the attention writes its
  // output there; likewise in_copy (in in bf16 or s8, Linear::forward's x_copy) may be norm's copy.
  void forward(const float* in, float* hidden, std::span<const std::int64_t> offsets, LayerScratch& scratch,
               const ScoreModifier& modifier, const LayerNormParams* norm = nullptr,
               const ReducedCopy& in_copy = {}) const;
  // The layer that reads `in`, for the norm that writes it to write its copy for.
  const Linear& qkv_layer() const { return qkv_; }

  // Its two layers to store packed, under their weights' names (the decls it was built from).
  std::vector<PackedLayer> packed_layers(const LinearDecl& qkv, const LinearDecl& out) const;

 private:
  int heads_;
  std::int64_t hidden_;
  Linear qkv_;
  Linear out_;  // accumulates into the residual
  // Its cosine and sine table grows to the longest sequence seen; an encoder runs one batch at a time.
  mutable RotaryEmbedding rotary_;
  AttentionProducts products_;  // bf16 when the weights are reduced
};

}  // namespace bertkit::core
