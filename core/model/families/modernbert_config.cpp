// ModernBERT's own config.json settings, in both layouts: transformers 5 writes `layer_types` and
// `rope_parameters` (a rope_theta per layer type); the Hub's checkpoints, saved by 4.48, have
// `global_attn_every_n_layers`, `global_rope_theta` and `local_rope_theta` instead. A config with
// neither takes transformers' defaults (every 3rd layer global from layer 0, thetas 160000 / 10000),
// and `local_attention` (128) is the window of both: a sliding layer's query sees keys within
// local_attention / 2 tokens each way.
#include "core/model/config_reader.h"

#include <string>

namespace bertkit::core {
namespace {

using nlohmann::json;

constexpr const char* kFull = "full_attention";
constexpr const char* kSliding = "sliding_attention";

// Whether each layer is global, from layer_types if present, else every n-th layer from layer 0.
std::vector<bool> global_layers(const ConfigReader& r, int layers) {
  std::vector<bool> global(static_cast<std::size_t>(layers));
  const json& types = r.root().contains("layer_types") ? r.root()["layer_types"] : json();
  if (types.is_null()) {
    const int every = r.size("global_attn_every_n_layers", 3);
    for (int i = 0; i < layers; ++i) global[static_cast<std::size_t>(i)] = i % every == 0;
    return global;
  }
  if (!types.is_array() || types.size() != global.size())
    r.refuse(fmt::format("field \"layer_types\" must list the {} layers' types", layers));
  for (std::size_t i = 0; i < types.size(); ++i) {
    if (types[i] != kFull && types[i] != kSliding)
      r.refuse(fmt::format("layer_types[{}] = {}: expected \"{}\" or \"{}\"", i, types[i].dump(), kFull, kSliding));
    global[i] = types[i] == kFull;
  }
  return global;
}

// The rotary theta of a layer type: rope_parameters[type].rope_theta, else the 4.48 key.
double rope_theta(const ConfigReader& r, const char* type, const char* legacy_key, double fallback) {
  const double legacy = r.positive(r.root(), legacy_key, fallback, legacy_key);
  auto params = r.root().find("rope_parameters");
  if (params == r.root().end() || params->is_null()) return legacy;
  const std::string where = fmt::format("rope_parameters.{}", type);
  if (!params->is_object()) r.refuse("field \"rope_parameters\" must be an object of layer types");
  auto of_type = params->find(type);
  if (of_type == params->end() || of_type->is_null()) return legacy;
  if (!of_type->is_object()) r.refuse(fmt::format("field \"{}\" must be an object", where));
  // Scaled rotary positions (linear, dynamic, yarn...) change the angles: refused, not ignored.
  auto kind = of_type->find("rope_type");
  if (kind != of_type->end() && !kind->is_null() && *kind != "default")
    r.refuse(fmt::format("unsupported {}.rope_type {} (only \"default\")", where, kind->dump()));
  return r.positive(*of_type, "rope_theta", legacy, where + ".rope_theta");
}

ClassifierPooling classifier_pooling(const ConfigReader& r) {
  const std::string pooling = r.text("classifier_pooling").value_or("cls");
  if (pooling == "cls") return ClassifierPooling::Cls;
  if (pooling == "mean") return ClassifierPooling::Mean;
  r.refuse(fmt::format("unsupported classifier_pooling \"{}\" (supported: cls, mean)", pooling));
}

}  // namespace

void read_modernbert_settings(const ConfigReader& r, ModelConfig& c) {
  c.layer_norm_eps = r.number("norm_eps", 1e-5);
  const int local_attention = r.size("local_attention", 128);
  const double global_theta = rope_theta(r, kFull, "global_rope_theta", 160000.0);
  const double local_theta = rope_theta(r, kSliding, "local_rope_theta", 10000.0);
  c.layer_attention.clear();
  for (bool global : global_layers(r, c.num_layers))
    c.layer_attention.push_back(global ? LayerAttention{global_theta, -1} : LayerAttention{local_theta, local_attention / 2});
  c.biases = {.attention = r.flag("attention_bias", false),
              .mlp = r.flag("mlp_bias", false),
              .norm = r.flag("norm_bias", false),
              .head = r.flag("classifier_bias", false),
              .decoder = r.flag("decoder_bias", true)};
  c.head_activation = parse_activation(r, "classifier_activation");
  c.classifier_pooling = classifier_pooling(r);
}

}  // namespace bertkit::core
