#include "core/model/encoder_layer.h"

#include "core/error.h"

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
  auto tensor = [&](const std::string& name, Shape shape) { return weights.require(p + name, shape).f32(); };

  std::vector<float> qkv_weight, qkv_bias;
  qkv_weight.reserve(static_cast<std::size_t>(3 * h * h));
  qkv_bias.reserve(static_cast<std::size_t>(3 * h));
  for (const char* part : {"query", "key", "value"}) {
    auto w = tensor(fmt::format("attention.self.{}.weight", part), {h, h});
    auto b = tensor(fmt::format("attention.self.{}.bias", part), {h});
    qkv_weight.insert(qkv_weight.end(), w.begin(), w.end());
    qkv_bias.insert(qkv_bias.end(), b.begin(), b.end());
  }
  qkv_ = Linear(qkv_weight, qkv_bias, 3 * h, h);
  attention_out_ = Linear(tensor("attention.output.dense.weight", {h, h}), tensor("attention.output.dense.bias", {h}),
                          h, h, Eltwise::Identity, LinearOutput::Accumulate);
  attention_norm_ = LayerNormWeights(weights, p + "attention.output.LayerNorm", h, config.layer_norm_eps);
  ffn_in_ = Linear(tensor("intermediate.dense.weight", {inter, h}), tensor("intermediate.dense.bias", {inter}), inter,
                   h, eltwise_for(config.hidden_act));
  ffn_out_ = Linear(tensor("output.dense.weight", {h, inter}), tensor("output.dense.bias", {h}), h, inter,
                    Eltwise::Identity, LinearOutput::Accumulate);
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
