#include "core/model/blocks/rotary_attention.h"

#include "core/model/packed_linears.h"

namespace bertkit::core {

RotaryAttention::RotaryAttention(const Weights& weights, const LinearDecl& qkv, const LinearDecl& out, int heads,
                                 const RotarySpec& rotary)
    : heads_(heads),
      hidden_(out.out),
      qkv_(packed_or_plain(weights, qkv)),
      out_(packed_or_plain(weights, out, Eltwise::Identity, LinearOutput::Accumulate)),
      rotary_(rotary),
      // As BERT's block: a reduced type's matmuls already round their inputs, so attention's products
      // follow them in bf16.
      products_(qkv_.computes_in_f32() ? AttentionProducts::F32 : AttentionProducts::BF16) {}

void RotaryAttention::forward(const float* in, float* hidden, std::span<const std::int64_t> offsets,
                              LayerScratch& s, const ScoreModifier& modifier, const LayerNormParams* norm,
                              const ReducedCopy& in_copy) const {
  const std::int64_t tokens = offsets.back(), h = hidden_;
  float* qkv = grown(s.qkv, tokens * 3 * h);
  float* context = grown(s.context, tokens * h);
  qkv_.forward(in, in_copy, tokens, qkv);
  rotary_.apply(qkv, 3 * h, 2 * heads_, offsets);  // Q and K
  s.attention.forward(qkv, offsets, heads_, h / heads_, context, products_, modifier);
  if (norm)
    out_.forward_normed(context, tokens, hidden, *norm);
  else
    out_.forward(context, tokens, hidden);
}

std::vector<PackedLayer> RotaryAttention::packed_layers(const LinearDecl& qkv, const LinearDecl& out) const {
  return {{qkv.weight(), {qkv.weight()}, {&qkv_}}, {out.weight(), {out.weight()}, {&out_}}};
}

}  // namespace bertkit::core
