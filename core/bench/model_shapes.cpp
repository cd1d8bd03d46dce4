#include "core/bench/model_shapes.h"

#include "core/model/model_tensors.h"
#include "core/error.h"

#include <nlohmann/json.hpp>

#include <array>
#include <cstring>
#include <string>

namespace bertkit::core {

std::span<const ModelShape> model_shapes() {
  static constexpr std::array<ModelShape, 9> shapes{{
      {"bert-base", 12, 768, 12, 3072},
      {"bert-large", 24, 1024, 16, 4096},
      {"minilm-l6", 6, 384, 12, 1536},
      {"minilm-l12", 12, 384, 12, 1536},
      {"mpnet-base", 12, 768, 12, 3072, "mpnet"},
      {"modernbert-base", 22, 768, 12, 1152, "modernbert"},
      {"modernbert-large", 28, 1024, 16, 2624, "modernbert"},
      {"nomic-embed-text", 12, 768, 12, 3072, "nomic_bert"},
      {"deberta-v3-base", 12, 768, 12, 3072, "deberta-v2"},
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

namespace {

using Json = nlohmann::ordered_json;

// The sizes every shape's config.json has, under the names its family's config uses.
struct SizeKeys {
  const char *hidden = "hidden_size", *layers = "num_hidden_layers", *heads = "num_attention_heads",
             *intermediate = "intermediate_size";
};

// A bare model's config.json: its architecture, model_type, vocabulary and sizes, then `rest`.
Json bare_config(const ModelShape& shape, const char* architecture, int vocab_size, const Json& rest,
                 const SizeKeys& keys = {}) {
  Json j = {{"architectures", {architecture}}, {"model_type", shape.model_type}, {"vocab_size", vocab_size},
            {keys.hidden, shape.hidden}, {keys.layers, shape.layers}, {keys.heads, shape.heads},
            {keys.intermediate, shape.intermediate}};
  j.update(rest);
  return j;
}

Json family_config(const ModelShape& shape) {
  if (shape.model_type == "modernbert")  // answerdotai/ModernBERT-base's (-large's), as the Hub has it (4.48)
    return bare_config(shape, "ModernBertModel", 50368,
                       {{"hidden_activation", "gelu"}, {"max_position_embeddings", 8192},
                        {"global_attn_every_n_layers", 3}, {"local_attention", 128}, {"global_rope_theta", 160000.0},
                        {"local_rope_theta", 10000.0}, {"norm_eps", 1e-5}, {"pad_token_id", 50283}});
  if (shape.model_type == "nomic_bert")  // nomic-embed-text-v1.5's, in the remote code's keys
    return bare_config(shape, "NomicBertModel", 30528,
                       {{"activation_function", "swiglu"}, {"n_positions", 8192}, {"max_trained_positions", 2048},
                        {"rotary_emb_base", 1000}, {"rotary_emb_fraction", 1.0}, {"qkv_proj_bias", false},
                        {"mlp_fc1_bias", false}, {"mlp_fc2_bias", false}, {"layer_norm_epsilon", 1e-12},
                        {"type_vocab_size", 2}},
                       {"n_embd", "n_layer", "n_head", "n_inner"});
  if (shape.model_type == "mpnet")  // all-mpnet-base-v2's: positions after padding id 1, 32 relative buckets
    return bare_config(shape, "MPNetModel", 30527,
                       {{"hidden_act", "gelu"}, {"max_position_embeddings", 514}, {"relative_attention_num_buckets", 32},
                        {"layer_norm_eps", 1e-5}, {"pad_token_id", 1}});
  if (shape.model_type == "deberta-v2")  // microsoft/deberta-v3-base's: disentangled attention, 256 buckets
    return bare_config(shape, "DebertaV2Model", 128100,
                       {{"hidden_act", "gelu"}, {"max_position_embeddings", 512}, {"relative_attention", true},
                        {"position_buckets", 256}, {"max_relative_positions", -1}, {"norm_rel_ebd", "layer_norm"},
                        {"share_att_key", true}, {"pos_att_type", "p2c|c2p"}, {"position_biased_input", false},
                        {"type_vocab_size", 0}, {"layer_norm_eps", 1e-7}, {"pad_token_id", 0}});
  return bare_config(shape, "BertModel", 30522,
                     {{"hidden_act", "gelu"}, {"max_position_embeddings", 512}, {"type_vocab_size", 2},
                      {"layer_norm_eps", 1e-12}, {"pad_token_id", 0}});
}

}  // namespace

std::string config_json(const ModelShape& shape) { return family_config(shape).dump(2) + "\n"; }

ModelConfig config_of(const ModelShape& shape) { return parse_model_config(config_json(shape), shape.name); }

Weights random_weights(const ModelConfig& config, std::uint64_t seed, float spread) {
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
      float v = gain ? 1.0f + 0.1f * next() : spread * next();
      std::memcpy(bytes.data() + i * sizeof(float), &v, sizeof v);
    }
    weights.add_owned(t.name, DType::F32, t.shape, std::move(bytes));
  }
  return weights;
}

}  // namespace bertkit::core
