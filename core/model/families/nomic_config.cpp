// NomicBERT's own config.json settings, in both layouts. The remote code's (NomicBertConfig, a GPT-2
// config) name the gated feed-forward `activation_function` (swiglu: SiLU gate; geglu: GELU gate), its
// biases qkv_proj_bias / mlp_fc1_bias / mlp_fc2_bias (all true unless set), and the rotary positions
// rotary_emb_base / _fraction / _interleaved; its feed-forward is n_inner rounded up to a multiple of
// 256, as NomciBertGatedMLP builds it. transformers 5's native config says hidden_act and
// rope_parameters.rope_theta, and has no biases. Variants the remote code offers and no checkpoint
// in use has (pre-norm, parallel blocks, non-gated or sigmoid-gated MLPs, xPos scaling) are refused.
#include "core/model/config_reader.h"

#include <string>

namespace bertkit::core {
namespace {

using nlohmann::json;

constexpr int kGatedWidthMultiple = 256;

// rope_parameters.rope_theta (native), else rotary_emb_base (remote code), else 10000.
double rope_theta(const ConfigReader& r) {
  const double base = r.positive(r.root(), "rotary_emb_base", 10000.0, "rotary_emb_base");
  auto params = r.root().find("rope_parameters");
  if (params == r.root().end() || params->is_null()) return base;
  if (!params->is_object()) r.refuse("field \"rope_parameters\" must be an object");
  auto kind = params->find("rope_type");
  if (kind != params->end() && !kind->is_null() && *kind != "default")
    r.refuse(fmt::format("unsupported rope_parameters.rope_type {} (only \"default\")", kind->dump()));
  return r.positive(*params, "rope_theta", base, "rope_parameters.rope_theta");
}

void refuse_variants(const ConfigReader& r) {
  for (const char* key : {"prenorm", "parallel_block"})
    if (r.flag(key, false)) r.refuse(fmt::format("{} true is not supported (NomicBERT's checkpoints are post-norm, sequential)", key));
  if (!r.root().value("rotary_emb_scale_base", json()).is_null())
    r.refuse("rotary_emb_scale_base (xPos-scaled rotary positions) is not supported");
  const json heads_kv = r.root().value("num_heads_kv", json());
  if (!heads_kv.is_null() && heads_kv != r.root().value("n_head", json()))
    r.refuse("num_heads_kv: grouped key/value heads are not supported");
}

}  // namespace

void read_nomic_settings(const ConfigReader& r, ModelConfig& c) {
  refuse_variants(r);
  const bool remote = r.root().contains("n_embd");
  if (auto act = r.text("activation_function")) {
    if (*act == "swiglu") c.hidden_act = Activation::Silu;
    else if (*act == "geglu") c.hidden_act = Activation::Gelu;
    else r.refuse(fmt::format("unsupported activation_function \"{}\" (supported: swiglu, geglu)", *act));
  }
  if (remote) c.intermediate_size = (c.intermediate_size + kGatedWidthMultiple - 1) / kGatedWidthMultiple * kGatedWidthMultiple;
  c.biases.attention = r.flag("qkv_proj_bias", remote);
  c.biases.mlp = r.flag("mlp_fc1_bias", remote);
  c.biases.mlp_out = r.flag("mlp_fc2_bias", remote);
  c.rotary.fraction = r.positive(r.root(), "rotary_emb_fraction", 1.0, "rotary_emb_fraction");
  if (c.rotary.fraction > 1) r.refuse(fmt::format("rotary_emb_fraction {} is more than the whole head", c.rotary.fraction));
  c.rotary.interleaved = r.flag("rotary_emb_interleaved", false);
  c.layer_attention.assign(static_cast<std::size_t>(c.num_layers), LayerAttention{rope_theta(r), -1});
  // Dynamic NTK scaling (rotary_scaling_factor: arctic-embed-m-long) changes the rotary base past
  // max_trained_positions by the padded batch's length; without it, inputs stop there.
  if (!r.root().value("rotary_scaling_factor", json()).is_null())
    c.max_position_embeddings = std::min(c.max_position_embeddings, r.size("max_trained_positions", c.max_position_embeddings));
}

}  // namespace bertkit::core
