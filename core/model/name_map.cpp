#include "core/model/name_map.h"

#include "core/model/family_spec.h"

namespace bertkit::core {

namespace {

bool starts_with(std::string_view s, std::string_view prefix) { return s.substr(0, prefix.size()) == prefix; }

std::optional<std::string> find_module(std::span<const ModuleName> rows, std::string_view module) {
  for (const auto& [from, to] : rows)
    if (module == from) return std::string(to);
  return std::nullopt;
}

std::optional<std::string> map_module(const FamilySpec& family, std::string_view module) {
  if (starts_with(module, family.layer_prefix)) {
    std::string_view rest = module.substr(family.layer_prefix.size());
    auto dot = rest.find('.');
    if (dot == std::string_view::npos || dot == 0) return std::nullopt;
    std::string_view index = rest.substr(0, dot);
    for (char c : index)
      if (c < '0' || c > '9') return std::nullopt;
    auto inner = find_module(family.layer_modules, rest.substr(dot + 1));
    if (!inner) return std::nullopt;
    return "encoder.layer." + std::string(index) + "." + *inner;
  }
  if (auto canonical = find_module(family.embedding_modules, module)) return canonical;
  return find_module(family.other_modules, module);
}

}  // namespace

std::optional<std::string> canonical_name(const FamilySpec& family, std::string_view name) {
  if (starts_with(name, family.checkpoint_prefix)) name.remove_prefix(family.checkpoint_prefix.size());
  if (name == "embeddings.position_ids") return std::string();
  auto dot = name.rfind('.');
  if (dot == std::string_view::npos) return std::nullopt;
  std::string_view module = name.substr(0, dot);
  std::string_view param = name.substr(dot + 1);
  // The original BERT release (bert-base-uncased, bert-base-cased) names LayerNorm parameters gamma/beta.
  bool layer_norm = module.ends_with("LayerNorm") || module.ends_with("layer_norm");
  if (layer_norm && param == "gamma") param = "weight";
  if (layer_norm && param == "beta") param = "bias";
  if (param != "weight" && param != "bias") return std::nullopt;
  auto canonical = map_module(family, module);
  if (!canonical) return std::nullopt;
  return *canonical + "." + std::string(param);
}

std::vector<ExpectedTensor> expected_tensors(const ModelConfig& c) {
  const std::int64_t V = c.vocab_size, H = c.hidden_size, E = c.embedding_size, I = c.intermediate_size;
  std::vector<ExpectedTensor> out;
  auto linear = [&](const std::string& module, std::int64_t out_features, std::int64_t in_features,
                    bool optional = false) {
    out.push_back({module + ".weight", {out_features, in_features}, optional});
    out.push_back({module + ".bias", {out_features}, optional});
  };
  auto layer_norm = [&](const std::string& module, std::int64_t width) {
    out.push_back({module + ".weight", {width}});
    out.push_back({module + ".bias", {width}});
  };

  const FamilySpec& family = *c.family;
  const ArchitectureSpec& architecture = architecture_spec(c);
  out.push_back({"embeddings.word_embeddings.weight", {V, E}});
  out.push_back({"embeddings.position_embeddings.weight", {c.max_position_embeddings, E}});
  if (c.type_vocab_size > 0) out.push_back({"embeddings.token_type_embeddings.weight", {c.type_vocab_size, E}});
  layer_norm("embeddings.LayerNorm", E);
  if (family.embedding_projection && E != H) linear("embeddings_project", H, E);
  if (c.relative_attention_buckets > 0)
    out.push_back({"encoder.relative_attention_bias.weight", {c.relative_attention_buckets, c.num_heads}});
  for (int l = 0; l < c.num_layers; ++l) {
    std::string p = "encoder.layer." + std::to_string(l) + ".";
    linear(p + "attention.self.query", H, H);
    linear(p + "attention.self.key", H, H);
    linear(p + "attention.self.value", H, H);
    linear(p + "attention.output.dense", H, H);
    layer_norm(p + "attention.output.LayerNorm", H);
    linear(p + "intermediate.dense", I, H);
    linear(p + "output.dense", H, I);
    layer_norm(p + "output.LayerNorm", H);
  }
  if (architecture.pooler != PoolerUse::None)
    linear("pooler.dense", H, H, /*optional=*/architecture.pooler == PoolerUse::Optional);
  if (architecture.mlm) {
    const std::int64_t W = family.mlm.embedding_width ? E : H;
    linear("mlm.transform.dense", W, H);
    layer_norm("mlm.transform.LayerNorm", W);
    linear("mlm.decoder", V, W);
  }
  if (c.head == HeadKind::SequenceClassification) {
    if (family.classifier.dense) linear("classifier.dense", H, H);
    linear("classifier.out", c.num_labels, H);
  }
  // One label per token: a plain Linear in every family, whatever its sequence classifier looks like.
  if (c.head == HeadKind::TokenClassification) linear("classifier.out", c.num_labels, H);
  if (architecture.nsp) linear("nsp", 2, H);
  if (c.head == HeadKind::QuestionAnswering) linear("qa_outputs", 2, H);
  if (architecture.discriminator) {
    linear("discriminator.dense", H, H);
    linear("discriminator.out", 1, H);
  }
  return out;
}

}  // namespace bertkit::core
