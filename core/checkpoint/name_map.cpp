#include "core/checkpoint/name_map.h"

#include "core/model/family_spec.h"

#include <fmt/format.h>

#include <set>

namespace bertkit::core {

namespace {

bool starts_with(std::string_view s, std::string_view prefix) { return s.substr(0, prefix.size()) == prefix; }

std::optional<std::string> find_module(std::span<const ModuleName> rows, std::string_view module,
                                       std::string_view param) {
  for (const auto& [from, to, only] : rows)
    if (module == from && (only.empty() || only == param)) return std::string(to);
  return std::nullopt;
}

// `heads`: the name rows of the architecture's heads (one architecture's, or each in turn).
std::optional<std::string> map_module(const FamilySpec& family, std::span<const ModuleName> heads,
                                      std::string_view module, std::string_view param) {
  if (starts_with(module, family.layer_prefix)) {
    std::string_view rest = module.substr(family.layer_prefix.size());
    auto dot = rest.find('.');
    if (dot == std::string_view::npos || dot == 0) return std::nullopt;
    std::string_view index = rest.substr(0, dot);
    for (char c : index)
      if (c < '0' || c > '9') return std::nullopt;
    auto inner = find_module(family.layer_modules, rest.substr(dot + 1), param);
    if (!inner) return std::nullopt;
    return "encoder.layer." + std::string(index) + "." + *inner;
  }
  if (auto canonical = find_module(heads, module, param)) return canonical;
  if (auto canonical = find_module(family.embedding_modules, module, param)) return canonical;
  return find_module(family.other_modules, module, param);
}

// The module and the parameter of a checkpoint name (without the model prefix); nullopt when it has no
// parameter bertkit reads.
std::optional<std::pair<std::string_view, std::string_view>> split_name(std::string_view name) {
  auto dot = name.rfind('.');
  if (dot == std::string_view::npos) return std::nullopt;
  std::string_view module = name.substr(0, dot);
  std::string_view param = name.substr(dot + 1);
  // The original BERT release (bert-base-uncased, bert-base-cased) names LayerNorm parameters gamma/beta.
  bool layer_norm = module.ends_with("LayerNorm") || module.ends_with("layer_norm");
  if (layer_norm && param == "gamma") param = "weight";
  if (layer_norm && param == "beta") param = "bias";
  if (param != "weight" && param != "bias") return std::nullopt;
  return std::pair{module, param};
}

std::optional<std::string> canonical_in(const FamilySpec& family, std::span<const ModuleName> heads,
                                        std::string_view name) {
  if (starts_with(name, family.checkpoint_prefix)) name.remove_prefix(family.checkpoint_prefix.size());
  if (name == "embeddings.position_ids") return std::string();
  auto parts = split_name(name);
  if (!parts) return std::nullopt;
  const auto [module, param] = *parts;
  auto canonical = map_module(family, heads, module, param);
  if (!canonical) return std::nullopt;
  return *canonical + "." + std::string(param);
}

}  // namespace

std::optional<std::string> canonical_name(const FamilySpec& family, const ArchitectureSpec& architecture,
                                          std::string_view name) {
  return canonical_in(family, architecture.modules, name);
}

std::optional<std::string> canonical_name(const FamilySpec& family, std::string_view name) {
  if (auto canonical = canonical_in(family, {}, name)) return canonical;
  for (const ArchitectureSpec& architecture : family.architectures)
    if (auto canonical = canonical_in(family, architecture.modules, name)) return canonical;
  return std::nullopt;
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

std::string checkpoint_spelling(const FamilySpec& family, const ArchitectureSpec& architecture,
                                std::string_view canonical) {
  const auto dot = canonical.rfind('.');
  if (dot == std::string_view::npos) return std::string(canonical);
  const std::string_view module = canonical.substr(0, dot), param = canonical.substr(dot + 1);
  for (std::span<const ModuleName> rows : {architecture.modules, family.other_modules, family.embedding_modules})
    for (const auto& [from, to, only] : rows)
      if (to == module && (only.empty() || only == param)) return fmt::format("{}.{}", from, param);
  return std::string(canonical);
}

void drop_absent_head(ModelConfig& config, const std::function<bool(std::string_view)>& present) {
  if (config.head == HeadKind::None) return;
  ModelConfig encoder = config;
  encoder.head = HeadKind::None;
  std::set<std::string, std::less<>> encoder_names;
  for (const auto& t : expected_tensors(encoder)) encoder_names.insert(t.name);
  AbsentHead absent{config.head, {}};
  for (const auto& t : expected_tensors(config)) {
    if (encoder_names.count(t.name) || t.optional) continue;
    // The tied decoder is the word embedding matrix: no file needs it.
    if (t.name == "mlm.decoder.weight" && config.tie_word_embeddings) continue;
    if (present(t.name)) return;
    absent.tensors.push_back(checkpoint_spelling(*config.family, architecture_spec(config), t.name));
  }
  if (absent.tensors.empty()) return;
  encoder.absent_head = std::move(absent);
  config = std::move(encoder);
}

}  // namespace bertkit::core
