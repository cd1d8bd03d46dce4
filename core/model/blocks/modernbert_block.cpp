#include "core/model/blocks/modernbert_block.h"

#include "core/error.h"
#include "core/model/family_spec.h"
#include "core/model/linear_weights.h"
#include "core/model/packed_linears.h"

#include <fmt/format.h>

namespace bertkit::core {
namespace {

void declare_modernbert_block(const ModelConfig& config, int layer, TensorDecls& decls) {
  ModernBertBlock::declare(config, layer, decls);
}

std::unique_ptr<Block> build_modernbert_block(const ModelConfig& config, const Weights& weights, int layer) {
  return std::make_unique<ModernBertBlock>(config, weights, layer);
}

const LayerAttention& attention_of(const ModelConfig& config, int index) {
  if (static_cast<std::size_t>(index) >= config.layer_attention.size())
    runtime_error("layer {} of {} has no attention settings (layer_types)", index, config.num_layers);
  return config.layer_attention[static_cast<std::size_t>(index)];
}

std::int64_t head_dim(const ModelConfig& config) {
  if (config.num_heads <= 0 || config.hidden_size % config.num_heads != 0)
    bad_input("hidden size {} is not a multiple of the {} attention heads", config.hidden_size, config.num_heads);
  const std::int64_t d = config.hidden_size / config.num_heads;
  if (d % 2 != 0) bad_input("head size {} is odd: rotary positions rotate pairs of values", d);
  return d;
}

GatedFeedForward gated_mlp(const ModelConfig& config, const Weights& weights, const ModernBertBlockTensors& t) {
  const GatedFeedForwardSpec spec{.hidden = config.hidden_size,
                                  .intermediate = config.intermediate_size,
                                  .activation = eltwise_for(config.hidden_act),
                                  .halves = GatedHalves::ActivateFirst,  // Wi's rows: input, then gate
                                  .output = LinearOutput::Accumulate};
  Linear out = packed_or_plain(weights, t.mlp_out, Eltwise::Identity, LinearOutput::Accumulate);
  // Wi's halves (input, then gate) from its packed form where a converted file has it, else split now.
  const Eltwise half_activations[] = {spec.activation, Eltwise::Identity};
  if (auto halves = packed_row_blocks(weights, t.mlp_in, half_activations))
    return GatedFeedForward(std::move((*halves)[0]), std::move((*halves)[1]), std::move(out));
  auto [activated, other] = GatedFeedForward::input_halves(
      spec, linear_weight(weights, t.mlp_in.weight(), t.mlp_in.out, t.mlp_in.in), linear_bias(weights, t.mlp_in));
  return GatedFeedForward(std::move(activated), std::move(other), std::move(out));
}

ModernBertBlockTensors declared(const ModelConfig& config, int index) {
  TensorDecls decls;
  return ModernBertBlock::declare(config, index, decls);
}

}  // namespace

const BlockRecipe modernbert_block_recipe{&declare_modernbert_block, &build_modernbert_block};

ModernBertBlockTensors ModernBertBlock::declare(const ModelConfig& config, int index, TensorDecls& decls) {
  const std::int64_t h = config.hidden_size, inter = config.intermediate_size;
  const ModuleBiases& b = config.biases;
  const std::string p = fmt::format("encoder.layer.{}.", index);
  ModernBertBlockTensors t;
  // transformers makes layer 0's attn_norm an Identity: the embeddings end in a LayerNorm already.
  if (index > 0) t.attention_norm = decls.layer_norm(p + "attn_norm", h, b.norm);
  t.qkv = decls.linear(p + "attn.Wqkv", 3 * h, h, false, b.attention);
  t.attention_out = decls.linear(p + "attn.Wo", h, h, false, b.attention);
  t.mlp_norm = decls.layer_norm(p + "mlp_norm", h, b.norm);
  t.mlp_in = decls.linear(p + "mlp.Wi", 2 * inter, h, false, b.mlp);
  t.mlp_out = decls.linear(p + "mlp.Wo", h, inter, false, b.mlp);
  return t;
}

ModernBertBlock::ModernBertBlock(const ModelConfig& config, const Weights& weights, int index)
    : ModernBertBlock(config, weights, index, declared(config, index)) {}

ModernBertBlock::ModernBertBlock(const ModelConfig& config, const Weights& weights, int index,
                                 const ModernBertBlockTensors& t)
    : tensors_(t),
      hidden_size_(config.hidden_size),
      window_(attention_of(config, index).window),
      attention_(weights, t.qkv, t.attention_out, config.num_heads,
                 {.head_dim = head_dim(config),
                  .rotary_dim = head_dim(config),
                  .theta = static_cast<float>(attention_of(config, index).rope_theta),
                  .layout = RotaryLayout::Half}),
      mlp_norm_(weights, t.mlp_norm, config.layer_norm_eps),
      mlp_(gated_mlp(config, weights, t)) {
  if (t.attention_norm) attention_norm_.emplace(weights, *t.attention_norm, config.layer_norm_eps);
}

void ModernBertBlock::add_packed_to(const Weights& source, Weights& weights) const {
  std::vector<PackedLayer> layers = attention_.packed_layers(tensors_.qkv, tensors_.attention_out);
  layers.push_back({tensors_.mlp_in.weight(), {tensors_.mlp_in.weight()}, {&mlp_.activated_layer(), &mlp_.other_layer()}});
  layers.push_back({tensors_.mlp_out.weight(), {tensors_.mlp_out.weight()}, {&mlp_.out_layer()}});
  add_packed_layers(source, weights, layers);
}

void ModernBertBlock::forward(float* hidden, std::span<const std::int64_t> offsets, LayerScratch& s,
                              const LayerContext& context) const {
  const std::int64_t tokens = offsets.back(), h = hidden_size_;
  float* normed = grown(s.context, tokens * h);  // a norm's output (the attention's then follows there)
  float* mlp_scratch = grown(s.intermediate, mlp_.scratch_floats(tokens));

  // Pre-norm: a norm's output is read by one layer, which takes it also in the type it computes in.
  ReducedCopyBuffer& copy = s.normed_copy;
  const float* attention_in = hidden;
  copy.clear();
  if (attention_norm_) {
    attention_norm_->apply(hidden, normed, tokens, copy.write_for(&attention_.qkv_layer(), tokens, h));
    attention_in = normed;
  }
  ScoreModifier modifier;
  modifier.window = window_;
  modifier.attended_keys = context.attended_keys;
  attention_.forward(attention_in, hidden, offsets, s, modifier, nullptr, copy.read());  // hidden += Wo·attention

  mlp_norm_.apply(hidden, normed, tokens, copy.write_for(&mlp_.activated_layer(), tokens, h));
  // hidden += GeGLU(mlp_norm(hidden))
  mlp_.forward(normed, tokens, hidden, mlp_scratch, nullptr, copy.read());
}

}  // namespace bertkit::core
