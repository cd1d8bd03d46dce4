#include "core/model/encoder_layer.h"

#include "core/dnnl/layout_names.h"
#include "core/error.h"
#include "core/model/linear_weights.h"

#include <fmt/format.h>

#include <cstring>
#include <functional>
#include <optional>
#include <utility>

namespace bertkit::core {
namespace {

// The layer's matrices under the names their packed forms are stored by (relative to the layer).
constexpr const char* kQkvWeight = "attention.self.qkv.weight";
constexpr const char* kAttentionOutWeight = "attention.output.dense.weight";
constexpr const char* kFfnInWeight = "intermediate.dense.weight";
constexpr const char* kFfnOutWeight = "output.dense.weight";

// The plain tensors a packed matrix stacks: Q, K and V for the fused projection, else itself.
std::vector<std::string> parts(const std::string& prefix, std::string_view packed) {
  if (packed != kQkvWeight) return {prefix + std::string(packed)};
  std::vector<std::string> names;
  for (const char* part : {"query", "key", "value"}) names.push_back(fmt::format("{}attention.self.{}.weight", prefix, part));
  return names;
}

// Scratch grows to the largest batch seen; later batches allocate nothing.
float* scratch(FloatBuffer& buffer, std::int64_t n) { return buffer.reserve(static_cast<std::size_t>(n)); }

}  // namespace

EncoderLayer::EncoderLayer(const ModelConfig& config, const Weights& weights, int index)
    : hidden_size_(config.hidden_size),
      intermediate_size_(config.intermediate_size),
      heads_(config.num_heads) {
  const std::int64_t h = hidden_size_, inter = intermediate_size_;
  if (heads_ <= 0 || h % heads_ != 0)
    bad_input("hidden size {} is not a multiple of the {} attention heads", h, heads_);
  const std::string p = fmt::format("encoder.layer.{}.", index);
  auto bias = [&](const std::string& name, std::int64_t n) { return weights.require(p + name, {n}).f32(); };
  auto weight = [&](const std::string& name, std::int64_t out, std::int64_t in) {
    return linear_weight(weights, p + name, out, in);
  };

  // Each Linear from its packed weights when the file holds them in this machine's layout (nothing
  // read, copied or reordered), else packed now from the plain ones, in their own type.
  auto linear = [&](const std::string& weight, std::span<const float> bias, std::int64_t out, std::int64_t in,
                    Eltwise act, LinearOutput output, const std::function<LinearWeight()>& plain) {
    if (const PackedView* packed = weights.find_packed(p + weight)) {
      std::vector<float> scales;  // int8: every part's row scales, stacked as the parts are
      for (const auto& part : packed->parts)
        if (weights.info(part + ".scale")) {
          auto s = weights.require(part + ".scale", {out / static_cast<std::int64_t>(packed->parts.size())}).f32();
          scales.insert(scales.end(), s.begin(), s.end());
        }
      if (auto layer = Linear::from_packed({packed->layout, {packed->data, packed->nbytes}, scales}, bias, out, in, act, output))
        return std::move(*layer);
    }
    return Linear(plain(), bias, out, in, act, output);
  };

  std::vector<float> qkv_bias;
  qkv_bias.reserve(static_cast<std::size_t>(3 * h));
  for (const char* part : {"query", "key", "value"}) {
    auto b = bias(fmt::format("attention.self.{}.bias", part), h);
    qkv_bias.insert(qkv_bias.end(), b.begin(), b.end());
  }
  const std::vector<std::string> qkv_names = parts(p, kQkvWeight);
  std::optional<StackedWeight> qkv_weight;  // stacked: one matmul instead of three
  qkv_ = linear(kQkvWeight, qkv_bias, 3 * h, h, Eltwise::Identity, LinearOutput::Overwrite, [&] {
    return qkv_weight.emplace(weights, qkv_names, h, h).view();
  });
  attention_out_ = linear(kAttentionOutWeight, bias("attention.output.dense.bias", h), h, h, Eltwise::Identity,
                          LinearOutput::Accumulate, [&] { return weight(kAttentionOutWeight, h, h); });
  attention_norm_ = LayerNormWeights(weights, p + "attention.output.LayerNorm", h, config.layer_norm_eps);
  ffn_in_ = linear(kFfnInWeight, bias("intermediate.dense.bias", inter), inter, h, eltwise_for(config.hidden_act),
                   LinearOutput::Overwrite, [&] { return weight(kFfnInWeight, inter, h); });
  ffn_out_ = linear(kFfnOutWeight, bias("output.dense.bias", h), h, inter, Eltwise::Identity, LinearOutput::Accumulate,
                    [&] { return weight(kFfnOutWeight, h, inter); });
  output_norm_ = LayerNormWeights(weights, p + "output.LayerNorm", h, config.layer_norm_eps);
  // A reduced type's matmuls already round their inputs to bf16 or s8: attention's products in bf16
  // cost no accuracy worth keeping and, at long sequences, most of the time int8 leaves.
  attention_products_ = qkv_.computes_in_f32() ? AttentionProducts::F32 : AttentionProducts::BF16;
}

void EncoderLayer::add_packed_to(const Weights& source, Weights& weights, int index) const {
  const std::string p = fmt::format("encoder.layer.{}.", index);
  const std::pair<const char*, const Linear*> layers[] = {
      {kQkvWeight, &qkv_}, {kAttentionOutWeight, &attention_out_}, {kFfnInWeight, &ffn_in_}, {kFfnOutWeight, &ffn_out_}};
  for (const auto& [name, layer] : layers) {
    auto layout = layer->packed_layout();
    if (!layout) continue;  // a layout no name describes cannot be recognised later: the load packs it
    const std::int64_t out = layer->out_features(), in = layer->in_features();
    const auto packed = layout_from_name({in, out}, *layout);
    const auto bytes = layer->packed_bytes();
    // Stored only packed, the plain tensors are recovered by unpacking: store nothing that would not
    // unpack to exactly them (such as s8 weights that the packing itself rescaled).
    const std::vector<std::string> plain = parts(p, name);
    const std::vector<std::byte> recovered = unpacked(*packed, bytes);
    std::size_t at = 0;
    bool exact = true;
    for (const auto& part : plain) {
      const TensorView* t = source.find(part);
      exact = exact && t && t->dtype == layout_dtype(*packed) && at + t->nbytes <= recovered.size() &&
              std::memcmp(recovered.data() + at, t->data, t->nbytes) == 0;
      at += t ? t->nbytes : 0;
    }
    if (!exact || at != recovered.size()) continue;
    weights.add_packed_owned(p + name, {*layout, nullptr, 0, {out, in}, plain}, {bytes.begin(), bytes.end()});
  }
}

void EncoderLayer::forward(float* hidden, std::span<const std::int64_t> offsets, LayerScratch& s,
                           const RelativeScoreBias* bias) const {
  const std::int64_t tokens = offsets.back(), h = hidden_size_;
  float* qkv = scratch(s.qkv, tokens * 3 * h);
  float* context = scratch(s.context, tokens * h);
  float* intermediate = scratch(s.intermediate, tokens * intermediate_size_);

  qkv_.forward(hidden, tokens, qkv);
  ScoreModifier modifier;
  if (bias) modifier.relative = *bias;
  s.attention.forward(qkv, offsets, heads_, h / heads_, context, attention_products_, modifier);
  attention_out_.forward(context, tokens, hidden);  // hidden += context·Wᵀ + b
  attention_norm_.apply(hidden, tokens);
  ffn_in_.forward(hidden, tokens, intermediate);
  ffn_out_.forward(intermediate, tokens, hidden);   // hidden += act(...)·Wᵀ + b
  output_norm_.apply(hidden, tokens);
}

}  // namespace bertkit::core
