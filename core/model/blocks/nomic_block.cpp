#include "core/model/blocks/nomic_block.h"

#include "core/error.h"
#include "core/model/family_spec.h"
#include "core/model/packed_linears.h"

#include <fmt/format.h>

#include <utility>
#include <string>
#include <vector>

namespace bertkit::core {
namespace {

void declare_nomic_block(const ModelConfig& config, int layer, TensorDecls& decls) { NomicBlock::declare(config, layer, decls); }

std::unique_ptr<Block> build_nomic_block(const ModelConfig& config, const Weights& weights, int layer) {
  return std::make_unique<NomicBlock>(config, weights, layer);
}

NomicBlockTensors nomic_tensors(const ModelConfig& config, int index) {
  TensorDecls decls;
  return NomicBlock::declare(config, index, decls);
}

RotarySpec nomic_rotary_spec(const ModelConfig& config, int index) {
  const std::int64_t d = config.hidden_size / config.num_heads;
  auto rotary_dim = static_cast<std::int64_t>(static_cast<double>(d) * config.rotary.fraction);
  if (rotary_dim <= 0 || rotary_dim % 2 != 0)
    bad_input("rotary_emb_fraction {} of head size {} gives {} rotated values: it must be a positive even number",
              config.rotary.fraction, d, rotary_dim);
  return {.head_dim = d,
          .rotary_dim = rotary_dim,
          .theta = static_cast<float>(config.layer_attention.at(static_cast<std::size_t>(index)).rope_theta),
          .layout = config.rotary.interleaved ? RotaryLayout::Interleaved : RotaryLayout::Half};
}

// fc12 is the gate (activated), fc11 the value, fc2 the output projection: three layers, each stored
// packed under its own name in a converted file.
GatedFeedForward nomic_gated_mlp(const ModelConfig& config, const Weights& weights, const NomicBlockTensors& t) {
  return GatedFeedForward(packed_or_plain(weights, t.gate, eltwise_for(config.hidden_act)), packed_or_plain(weights, t.up),
                          packed_or_plain(weights, t.down, Eltwise::Identity, LinearOutput::Accumulate));
}

}  // namespace

const BlockRecipe nomic_block_recipe{&declare_nomic_block, &build_nomic_block};

NomicBlockTensors NomicBlock::declare(const ModelConfig& config, int index, TensorDecls& decls) {
  const std::int64_t h = config.hidden_size, inter = config.intermediate_size;
  const ModuleBiases& b = config.biases;
  const std::string p = fmt::format("encoder.layer.{}.", index);
  NomicBlockTensors t;
  t.qkv = decls.linear(p + "attn.Wqkv", 3 * h, h, false, b.attention);
  t.attention_out = decls.linear(p + "attn.out_proj", h, h, false, b.attention);
  t.attention_norm = decls.layer_norm(p + "norm1", h, b.norm);
  t.up = decls.linear(p + "mlp.fc11", inter, h, false, b.mlp);
  t.gate = decls.linear(p + "mlp.fc12", inter, h, false, b.mlp);
  t.down = decls.linear(p + "mlp.fc2", h, inter, false, b.mlp_out);
  t.mlp_norm = decls.layer_norm(p + "norm2", h, b.norm);
  return t;
}

NomicBlock::NomicBlock(const ModelConfig& config, const Weights& weights, int index)
    : NomicBlock(config, weights, index, nomic_tensors(config, index)) {}

NomicBlock::NomicBlock(const ModelConfig& config, const Weights& weights, int index, const NomicBlockTensors& t)
    : tensors_(t),
      attention_(weights, t.qkv, t.attention_out, config.num_heads, nomic_rotary_spec(config, index)),
      attention_norm_(weights, t.attention_norm, config.layer_norm_eps),
      mlp_norm_(weights, t.mlp_norm, config.layer_norm_eps),
      mlp_(nomic_gated_mlp(config, weights, t)) {}

void NomicBlock::add_packed_to(const Weights& source, Weights& weights) const {
  const NomicBlockTensors& t = tensors_;
  std::vector<PackedLayer> layers = attention_.packed_layers(t.qkv, t.attention_out);
  for (const auto& [decl, layer] : {std::pair{&t.gate, &mlp_.activated_layer()}, std::pair{&t.up, &mlp_.other_layer()},
                                    std::pair{&t.down, &mlp_.out_layer()}})
    layers.push_back({decl->weight(), {decl->weight()}, {layer}});
  add_packed_layers(source, weights, layers);
}

void NomicBlock::forward(float* hidden, std::span<const std::int64_t> offsets, LayerScratch& s, const LayerContext& context) const {
  const std::int64_t tokens = offsets.back(), h = attention_.qkv_layer().in_features();
  float* mlp_scratch = grown(s.intermediate, mlp_.scratch_floats(tokens));
  ScoreModifier modifier;
  modifier.attended_keys = context.attended_keys;
  // Post-norm: the residual layers normalise what they add to (int8: in their epilogue's pass), writing
  // the rows also in the type of the layer that reads them next; each layer reads its copy (the previous
  // one's) before its norm rewrites it.
  ReducedCopyBuffer& copy = s.hidden_copy;
  const ReducedCopy layer_in = copy.read();
  const LayerNormParams attention_norm = attention_norm_.params(copy.write_for(&mlp_.activated_layer(), tokens, h));
  attention_.forward(hidden, hidden, offsets, s, modifier, &attention_norm, layer_in);  // hidden += out_proj·attention
  const ReducedCopy mlp_in = copy.read();
  const LayerNormParams mlp_norm =
      mlp_norm_.params(copy.write_for(context.last ? nullptr : &attention_.qkv_layer(), tokens, h));
  // hidden += fc2(fc11(x)·act(fc12(x))), x read a chunk ahead
  mlp_.forward(hidden, tokens, hidden, mlp_scratch, &mlp_norm, mlp_in);
}

}  // namespace bertkit::core
