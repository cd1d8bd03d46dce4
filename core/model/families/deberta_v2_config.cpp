// DeBERTa-v2's own config.json settings, with DebertaV2Config's defaults where a key is absent
// (relative_attention false, position_biased_input true, no position buckets, share_att_key false,
// norm_rel_ebd "none", layer_norm_eps 1e-7, type_vocab_size 0). pos_att_type is a list or a
// "p2c|c2p" string, as DebertaV2Config accepts both. DeBERTa-v2-xlarge's convolution beside the
// first layer (conv_kernel_size) has no implementation here and is refused by name.
#include "core/model/config_reader.h"

#include <algorithm>
#include <cctype>
#include <string>
#include <vector>

namespace bertkit::core {
namespace {

using nlohmann::json;

// A "|"-separated setting as DebertaV2Config splits it: lower-cased, each part stripped.
std::vector<std::string> split_bars(std::string text) {
  std::transform(text.begin(), text.end(), text.begin(), [](unsigned char c) { return std::tolower(c); });
  std::vector<std::string> parts;
  std::size_t start = 0;
  while (start <= text.size()) {
    const std::size_t bar = std::min(text.find('|', start), text.size());
    std::string part = text.substr(start, bar - start);
    part.erase(0, part.find_first_not_of(" \t"));
    part.erase(part.find_last_not_of(" \t") + 1);
    parts.push_back(part);
    start = bar + 1;
  }
  return parts;
}

void read_attention_types(const ConfigReader& r, DisentangledAttention& a) {
  const json types = r.root().value("pos_att_type", json());
  std::vector<std::string> names;
  if (types.is_string()) {
    names = split_bars(types.get<std::string>());
  } else if (types.is_array()) {
    for (const json& t : types) {
      if (!t.is_string()) r.refuse(fmt::format("field \"pos_att_type\" must list strings, got {}", t.dump()));
      names.push_back(t.get<std::string>());
    }
  } else if (!types.is_null()) {
    r.refuse(fmt::format("field \"pos_att_type\" must be a list or a \"p2c|c2p\" string, got {}", types.dump()));
  }
  for (const std::string& name : names) {
    if (name == "c2p") a.c2p = true;
    else if (name == "p2c") a.p2c = true;
    else if (!name.empty()) r.refuse(fmt::format("unsupported pos_att_type \"{}\" (supported: c2p, p2c)", name));
  }
}

}  // namespace

void read_deberta_settings(const ConfigReader& r, ModelConfig& c) {
  const json conv = r.root().value("conv_kernel_size", json());
  if (!conv.is_null() && conv != json(0))
    r.refuse("conv_kernel_size: DeBERTa-v2's convolution layer (deberta-v2-xlarge, -xxlarge) is not supported");
  c.layer_norm_eps = r.number("layer_norm_eps", 1e-7);
  if (c.embedding_size == 0) c.embedding_size = c.hidden_size;  // DebertaV2Embeddings' default
  c.type_vocab_size = r.size("type_vocab_size", 0, 0);
  c.absolute_positions = r.flag("position_biased_input", true);
  if (const auto pooled = r.size("pooler_hidden_size", c.hidden_size); pooled != c.hidden_size)
    r.refuse(fmt::format("pooler_hidden_size {} differs from hidden_size {}: not supported", pooled, c.hidden_size));
  c.classifier_activation = parse_activation(r, "pooler_hidden_act");
  if (const auto head = r.size("attention_head_size", c.hidden_size / c.num_heads); head != c.hidden_size / c.num_heads)
    r.refuse(fmt::format("attention_head_size {} is not hidden_size / num_attention_heads ({}): not supported", head,
                         c.hidden_size / c.num_heads));

  DisentangledAttention& a = c.disentangled;
  a.relative = r.flag("relative_attention", false);
  read_attention_types(r, a);
  a.buckets = std::max(0, r.size("position_buckets", -1, -kMaxDim));
  const int max_relative = r.size("max_relative_positions", -1, -kMaxDim);
  a.max_relative = max_relative < 1 ? c.max_position_embeddings : max_relative;
  a.share_key = r.flag("share_att_key", false);
  const auto norms = split_bars(r.text("norm_rel_ebd").value_or("none"));
  a.norm_relative = std::find(norms.begin(), norms.end(), "layer_norm") != norms.end();
}

}  // namespace bertkit::core
