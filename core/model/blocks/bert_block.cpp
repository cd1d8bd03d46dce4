#include "core/model/blocks/bert_block.h"

#include "core/error.h"
#include "core/model/family_spec.h"
#include "core/model/linear_weights.h"
#include "core/model/packed_linears.h"

#include <fmt/format.h>

#include <optional>
#include <vector>

namespace bertkit::core {
namespace {

// The name the fused Q|K|V projection's packed form is stored under (Q, K and V are its plain parts);
// the other matrices are stored packed under their own weight's name.
std::string qkv_packed_name(int index) { return fmt::format("encoder.layer.{}.attention.self.qkv.weight", index); }

void declare_bert_block(const ModelConfig& config, int layer, TensorDecls& decls) {
  BertBlock::declare(config, layer, decls);
}

std::unique_ptr<Block> build_bert_block(const ModelConfig& config, const Weights& weights, int layer) {
  return std::make_unique<BertBlock>(config, weights, layer);
}

}  // namespace

const BlockRecipe bert_block_recipe{&declare_bert_block, &build_bert_block};

BertBlockTensors BertBlock::declare(const ModelConfig& config, int index, TensorDecls& decls) {
  const std::int64_t h = config.hidden_size, inter = config.intermediate_size;
  const std::string p = fmt::format("encoder.layer.{}.", index);
  BertBlockTensors t;
  t.query = decls.linear(p + "attention.self.query", h, h);
  t.key = decls.linear(p + "attention.self.key", h, h);
  t.value = decls.linear(p + "attention.self.value", h, h);
  t.attention_out = decls.linear(p + "attention.output.dense", h, h);
  t.attention_norm = decls.layer_norm(p + "attention.output.LayerNorm", h);
  t.ffn_in = decls.linear(p + "intermediate.dense", inter, h);
  t.ffn_out = decls.linear(p + "output.dense", h, inter);
  t.output_norm = decls.layer_norm(p + "output.LayerNorm", h);
  return t;
}

BertBlock::BertBlock(const ModelConfig& config, const Weights& weights, int index)
    : index_(index), hidden_size_(config.hidden_size), intermediate_size_(config.intermediate_size), heads_(config.num_heads) {
  const std::int64_t h = hidden_size_;
  if (heads_ <= 0 || h % heads_ != 0)
    bad_input("hidden size {} is not a multiple of the {} attention heads", h, heads_);
  TensorDecls decls;
  const BertBlockTensors& t = tensors_ = declare(config, index, decls);
  auto bias = [&](const LinearDecl& d) { return weights.require(d.bias(), {d.out}).f32(); };

  std::vector<float> qkv_bias;
  qkv_bias.reserve(static_cast<std::size_t>(3 * h));
  for (const LinearDecl* part : {&t.query, &t.key, &t.value}) {
    auto b = bias(*part);
    qkv_bias.insert(qkv_bias.end(), b.begin(), b.end());
  }
  const std::vector<std::string> qkv_names = {t.query.weight(), t.key.weight(), t.value.weight()};
  std::optional<StackedWeight> qkv_weight;  // stacked: one matmul instead of three
  qkv_ = packed_or_plain(weights, qkv_packed_name(index), qkv_bias, 3 * h, h, Eltwise::Identity, LinearOutput::Overwrite,
                         [&] { return qkv_weight.emplace(weights, qkv_names, h, h).view(); });
  attention_out_ = packed_or_plain(weights, t.attention_out, Eltwise::Identity, LinearOutput::Accumulate);
  attention_norm_ = LayerNormWeights(weights, t.attention_norm, config.layer_norm_eps);
  ffn_in_ = packed_or_plain(weights, t.ffn_in, eltwise_for(config.hidden_act), LinearOutput::Overwrite);
  ffn_out_ = packed_or_plain(weights, t.ffn_out, Eltwise::Identity, LinearOutput::Accumulate);
  output_norm_ = LayerNormWeights(weights, t.output_norm, config.layer_norm_eps);
  // A reduced type's matmuls already round their inputs to bf16 or s8: attention's products in bf16
  // cost no accuracy worth keeping and, at long sequences, most of the time int8 leaves.
  attention_products_ = qkv_.computes_in_f32() ? AttentionProducts::F32 : AttentionProducts::BF16;
}

void BertBlock::add_packed_to(const Weights& source, Weights& weights) const {
  const BertBlockTensors& t = tensors_;
  const PackedLayer layers[] = {
      {qkv_packed_name(index_), {t.query.weight(), t.key.weight(), t.value.weight()}, {&qkv_}},
      {t.attention_out.weight(), {t.attention_out.weight()}, {&attention_out_}},
      {t.ffn_in.weight(), {t.ffn_in.weight()}, {&ffn_in_}},
      {t.ffn_out.weight(), {t.ffn_out.weight()}, {&ffn_out_}}};
  add_packed_layers(source, weights, layers);
}

ScoreModifier BertBlock::score_modifier(const float*, std::span<const std::int64_t>, LayerScratch&,
                                        const LayerContext& context) const {
  ScoreModifier modifier;
  if (context.score_bias) modifier.relative = *context.score_bias;
  modifier.attended_keys = context.attended_keys;
  return modifier;
}

void BertBlock::forward(float* hidden, std::span<const std::int64_t> offsets, LayerScratch& s,
                        const LayerContext& context) const {
  const std::int64_t tokens = offsets.back(), h = hidden_size_;
  float* qkv = grown(s.qkv, tokens * 3 * h);
  float* attended = grown(s.context, tokens * h);
  ReducedCopyBuffer& copy = s.hidden_copy;  // hidden as the previous layer's last norm also wrote it

  qkv_.forward(hidden, copy.read(), tokens, qkv);
  const ScoreModifier modifier = score_modifier(qkv, offsets, s, context);
  s.attention.forward(qkv, offsets, heads_, h / heads_, attended, attention_products_, modifier);
  // The residual layers normalise what they add to (int8: in their epilogue's pass), writing the rows
  // also in the type of the layer that reads them next.
  attention_out_.forward_normed(attended, tokens, hidden, attention_norm_.params(copy.write_for(&ffn_in_, tokens, h)));
  // hidden += act(hidden·W₁ᵀ + b₁)·W₂ᵀ + b₂, normalised; the output norm writes the next layer's QKV
  // projection's copy once the first feed-forward layer has read this one.
  auto feed_forward = [&](auto activated) {
    ffn_in_.forward(hidden, copy.read(), tokens, activated);
    ffn_out_.forward_normed(activated, tokens, hidden,
                            output_norm_.params(copy.write_for(context.last ? nullptr : &qkv_, tokens, h)));
  };
  // The first feed-forward layer hands on its output in the type the second computes in.
  if (ffn_in_.reads_bf16() && ffn_out_.reads_bf16())
    feed_forward(grown(s.intermediate_bf16, tokens * intermediate_size_));
  else if (ffn_in_.reads_s8() && ffn_out_.reads_s8())
    feed_forward(QuantizedRows{grown(s.intermediate_s8, tokens * intermediate_size_), grown(s.intermediate_scales, tokens)});
  else
    feed_forward(grown(s.intermediate, tokens * intermediate_size_));
}

}  // namespace bertkit::core
