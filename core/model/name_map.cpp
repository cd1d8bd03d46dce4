#include "core/model/name_map.h"

#include <fmt/format.h>

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
  else if (!family.other_checkpoint_prefix.empty() && starts_with(name, family.other_checkpoint_prefix))
    name.remove_prefix(family.other_checkpoint_prefix.size());
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

std::string checkpoint_spelling(const FamilySpec& family, const ArchitectureSpec& architecture,
                                std::string_view canonical) {
  const auto dot = canonical.rfind('.');
  if (dot == std::string_view::npos) return std::string(canonical);
  const std::string_view module = canonical.substr(0, dot), param = canonical.substr(dot + 1);
  constexpr std::string_view kLayer = "encoder.layer.";
  if (starts_with(module, kLayer)) {  // encoder.layer.N.inner: the family's layer prefix and its inner name
    const std::string_view rest = module.substr(kLayer.size());
    const auto index_end = rest.find('.');
    if (index_end != std::string_view::npos)
      for (const auto& [from, to, only] : family.layer_modules)
        if (to == rest.substr(index_end + 1) && (only.empty() || only == param))
          return fmt::format("{}{}.{}.{}", family.layer_prefix, rest.substr(0, index_end), from, param);
    return std::string(canonical);
  }
  for (std::span<const ModuleName> rows : {architecture.modules, family.other_modules, family.embedding_modules})
    for (const auto& [from, to, only] : rows)
      if (to == module && (only.empty() || only == param)) return fmt::format("{}.{}", from, param);
  return std::string(canonical);
}

}  // namespace bertkit::core
