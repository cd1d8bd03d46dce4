#include "core/bench/model_shapes.h"

#include "core/model/model_tensors.h"
#include "core/error.h"

#include <nlohmann/json.hpp>

#include <array>
#include <cstring>
#include <string>

namespace bertkit::core {

std::span<const ModelShape> model_shapes() {
  static constexpr std::array<ModelShape, 8> shapes{{
      {"bert-base", 12, 768, 12, 3072},
      {"bert-large", 24, 1024, 16, 4096},
      {"minilm-l6", 6, 384, 12, 1536},
      {"minilm-l12", 12, 384, 12, 1536},
      {"mpnet-base", 12, 768, 12, 3072, "mpnet"},
      {"modernbert-base", 22, 768, 12, 1152, "modernbert"},
      {"modernbert-large", 28, 1024, 16, 2624, "modernbert"},
      {"nomic-embed-text", 12, 768, 12, 3072, "nomic_bert"},
  }};
  return shapes;
}

const ModelShape& find_model_shape(std::string_view name) {
  std::string known;
  for (const auto& s : model_shapes()) {
    if (s.name == name) return s;
    known += (known.empty() ? "" : ", ") + std::string(s.name);
  }
  usage_error("unknown model shape \"{}\" (known: {})", name, known);
}

std::string config_json(const ModelShape& shape) {
  if (shape.model_type == "modernbert") {
    // answerdotai/ModernBERT-base's (-large's) config.json, in the layout the Hub has (transformers 4.48).
    nlohmann::ordered_json j = {{"architectures", {"ModernBertModel"}},
                                {"model_type", "modernbert"},
                                {"vocab_size", 50368},
                                {"hidden_size", shape.hidden},
                                {"num_hidden_layers", shape.layers},
                                {"num_attention_heads", shape.heads},
                                {"intermediate_size", shape.intermediate},
                                {"hidden_activation", "gelu"},
                                {"max_position_embeddings", 8192},
                                {"global_attn_every_n_layers", 3},
                                {"local_attention", 128},
                                {"global_rope_theta", 160000.0},
                                {"local_rope_theta", 10000.0},
                                {"norm_eps", 1e-5},
                                {"pad_token_id", 50283}};
    return j.dump(2) + "\n";
  }
  if (shape.model_type == "nomic_bert") {
    // nomic-ai/nomic-embed-text-v1.5's config.json as the Hub has it (the remote code's keys).
    nlohmann::ordered_json j = {{"architectures", {"NomicBertModel"}},
                                {"model_type", "nomic_bert"},
                                {"vocab_size", 30528},
                                {"n_embd", shape.hidden},
                                {"n_layer", shape.layers},
                                {"n_head", shape.heads},
                                {"n_inner", shape.intermediate},
                                {"activation_function", "swiglu"},
                                {"n_positions", 8192},
                                {"max_trained_positions", 2048},
                                {"rotary_emb_base", 1000},
                                {"rotary_emb_fraction", 1.0},
                                {"qkv_proj_bias", false},
                                {"mlp_fc1_bias", false},
                                {"mlp_fc2_bias", false},
                                {"layer_norm_epsilon", 1e-12},
                                {"type_vocab_size", 2}};
    return j.dump(2) + "\n";
  }
  if (shape.model_type == "mpnet") {
    // all-mpnet-base-v2's: positions after padding id 1 (514 of them), 32 relative position buckets.
    nlohmann::ordered_json j = {{"architectures", {"MPNetModel"}},
                                {"model_type", "mpnet"},
                                {"vocab_size", 30527},
                                {"hidden_size", shape.hidden},
                                {"num_hidden_layers", shape.layers},
                                {"num_attention_heads", shape.heads},
                                {"intermediate_size", shape.intermediate},
                                {"hidden_act", "gelu"},
                                {"max_position_embeddings", 514},
                                {"relative_attention_num_buckets", 32},
                                {"layer_norm_eps", 1e-5},
                                {"pad_token_id", 1}};
    return j.dump(2) + "\n";
  }
  nlohmann::ordered_json j = {{"architectures", {"BertModel"}},
                              {"model_type", "bert"},
                              {"vocab_size", 30522},
                              {"hidden_size", shape.hidden},
                              {"num_hidden_layers", shape.layers},
                              {"num_attention_heads", shape.heads},
                              {"intermediate_size", shape.intermediate},
                              {"hidden_act", "gelu"},
                              {"max_position_embeddings", 512},
                              {"type_vocab_size", 2},
                              {"layer_norm_eps", 1e-12},
                              {"pad_token_id", 0}};
  return j.dump(2) + "\n";
}

ModelConfig config_of(const ModelShape& shape) { return parse_model_config(config_json(shape), shape.name); }

Weights random_weights(const ModelConfig& config, std::uint64_t seed) {
  Weights weights;
  std::uint64_t state = seed * 0x9e3779b97f4a7c15ull + 1;
  auto next = [&state] {  // xorshift64*: fast enough to fill a large model in a moment
    state ^= state >> 12, state ^= state << 25, state ^= state >> 27;
    return static_cast<float>((state * 0x2545f4914f6cdd1dull) >> 40) * 0x1p-24f - 0.5f;  // [-0.5, 0.5)
  };
  for (const auto& t : model_tensors(config)) {
    const auto n = static_cast<std::size_t>(shape_numel(t.shape));
    // LayerNorm gains near 1, everything else small, like a trained model (keeps activations in range).
    // A one-dimensional weight is a norm's gain (LayerNorm, ModernBERT's *_norm, NomicBERT's norm1/norm2).
    const bool gain = t.shape.size() == 1 && t.name.ends_with(".weight");
    std::vector<std::byte> bytes(n * sizeof(float));
    for (std::size_t i = 0; i < n; ++i) {
      float v = gain ? 1.0f + 0.1f * next() : 0.08f * next();
      std::memcpy(bytes.data() + i * sizeof(float), &v, sizeof v);
    }
    weights.add_owned(t.name, DType::F32, t.shape, std::move(bytes));
  }
  return weights;
}

}  // namespace bertkit::core
