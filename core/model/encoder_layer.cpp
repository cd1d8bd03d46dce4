#include "core/model/encoder_layer.h"

#include "core/error.h"
#include "core/model/linear_weights.h"

#include <fmt/format.h>

namespace bertkit::core {
namespace {

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

  std::vector<std::string> qkv_names;
  std::vector<float> qkv_bias;
  qkv_bias.reserve(static_cast<std::size_t>(3 * h));
  for (const char* part : {"query", "key", "value"}) {
    qkv_names.push_back(fmt::format("{}attention.self.{}.weight", p, part));
    auto b = bias(fmt::format("attention.self.{}.bias", part), h);
    qkv_bias.insert(qkv_bias.end(), b.begin(), b.end());
  }
  qkv_ = Linear(StackedWeight(weights, qkv_names, h, h).view(), qkv_bias, 3 * h, h);
  attention_out_ = Linear(weight("attention.output.dense.weight", h, h), bias("attention.output.dense.bias", h), h, h,
                          Eltwise::Identity, LinearOutput::Accumulate);
  attention_norm_ = LayerNormWeights(weights, p + "attention.output.LayerNorm", h, config.layer_norm_eps);
  ffn_in_ = Linear(weight("intermediate.dense.weight", inter, h), bias("intermediate.dense.bias", inter), inter, h,
                   eltwise_for(config.hidden_act));
  ffn_out_ = Linear(weight("output.dense.weight", h, inter), bias("output.dense.bias", h), h, inter, Eltwise::Identity,
                    LinearOutput::Accumulate);
  output_norm_ = LayerNormWeights(weights, p + "output.LayerNorm", h, config.layer_norm_eps);
}

void EncoderLayer::forward(float* hidden, std::span<const std::int64_t> offsets, LayerScratch& s) const {
  const std::int64_t tokens = offsets.back(), h = hidden_size_;
  float* qkv = scratch(s.qkv, tokens * 3 * h);
  float* context = scratch(s.context, tokens * h);
  float* intermediate = scratch(s.intermediate, tokens * intermediate_size_);

  qkv_.forward(hidden, tokens, qkv);
  s.attention.forward(qkv, offsets, heads_, h / heads_, context);
  attention_out_.forward(context, tokens, hidden);  // hidden += context·Wᵀ + b
  attention_norm_.apply(hidden, tokens);
  ffn_in_.forward(hidden, tokens, intermediate);
  ffn_out_.forward(intermediate, tokens, hidden);   // hidden += act(...)·Wᵀ + b
  output_norm_.apply(hidden, tokens);
}

}  // namespace bertkit::core
