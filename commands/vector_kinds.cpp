#include "commands/vector_kinds.h"

#include "core/error.h"

#include <fmt/format.h>

#include <algorithm>

namespace bertkit::cmd {

namespace {

std::string known_names() {
  std::string names;
  for (const VectorKindInfo& k : kVectorKinds) names += (names.empty() ? "" : ", ") + std::string(k.name);
  return names;
}

}  // namespace

const VectorKindInfo& vector_kind_info(VectorKind kind) {
  for (const VectorKindInfo& k : kVectorKinds)
    if (k.kind == kind) return k;
  return kVectorKinds[0];
}

VectorKind parse_vector_kind(std::string_view name, std::string_view flag) {
  for (const VectorKindInfo& k : kVectorKinds)
    if (k.name == name) return k.kind;
  usage_error("{}: unknown vector kind '{}' (expected one of: {})", flag, name, known_names());
}

std::vector<VectorKind> parse_vector_kinds(std::string_view list, std::string_view flag) {
  std::vector<VectorKind> kinds;
  std::size_t start = 0;
  while (start <= list.size()) {
    const std::size_t comma = std::min(list.find(',', start), list.size());
    const VectorKind kind = parse_vector_kind(list.substr(start, comma - start), flag);
    if (std::find(kinds.begin(), kinds.end(), kind) != kinds.end())
      usage_error("{}: '{}' is given twice", flag, vector_kind_info(kind).name);
    kinds.push_back(kind);
    start = comma + 1;
  }
  return kinds;
}

bool has_vector(std::span<const VectorKind> kinds, VectorKind kind) {
  return std::find(kinds.begin(), kinds.end(), kind) != kinds.end();
}

std::vector<VectorKind> offered_vectors(const core::LoadedModel& model) {
  const auto& st = model.sentence_transformer;
  if (st && st->splade) return {VectorKind::Sparse};
  if (st && st->colbert) return {VectorKind::Colbert};
  std::vector<VectorKind> kinds{VectorKind::Dense};
  if (model.sparse_linear) kinds.push_back(VectorKind::Sparse);
  if (model.colbert_linear) kinds.push_back(VectorKind::Colbert);
  return kinds;
}

VectorKind default_vector(const core::LoadedModel& model) { return offered_vectors(model).front(); }

void require_offered(const core::LoadedModel& model, VectorKind kind, std::string_view flag) {
  const std::vector<VectorKind> offered = offered_vectors(model);
  if (std::find(offered.begin(), offered.end(), kind) != offered.end()) return;
  std::string names;
  for (VectorKind k : offered) names += (names.empty() ? "" : ", ") + std::string(vector_kind_info(k).name);
  usage_error("{} {}: this model gives {} vectors only{}", flag, vector_kind_info(kind).name, names,
              kind == VectorKind::Sparse
                  ? " (sparse needs a SparseEncoder folder or BGE-M3's sparse_linear.pt beside config.json; for a Hub "
                    "model, bertkit download ORG/NAME fetches it when the repository has it)"
              : kind == VectorKind::Colbert
                  ? " (colbert needs a PyLate or Stanford ColBERT folder or BGE-M3's colbert_linear.pt beside "
                    "config.json; for a Hub model, bertkit download ORG/NAME fetches it when the repository has it)"
                  : "");
}

}  // namespace bertkit::cmd
