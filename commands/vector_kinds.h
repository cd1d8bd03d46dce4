#pragma once
// The vectors a retrieval model gives per text: one dense embedding, a learned-sparse vector (SPLADE,
// BGE-M3's lexical weights). `embed --vectors` chooses which are written, `similarity --mode` which
// one scores; each kind has one row in kVectorKinds (its flag name and output field), so a new kind
// (BGE-M3's ColBERT vectors) is a new row, not new string compares.
#include "core/loading/model_source.h"

#include <span>
#include <string_view>
#include <vector>

namespace bertkit::cmd {

enum class VectorKind { Dense, Sparse, Colbert };

struct VectorKindInfo {
  VectorKind kind;
  std::string_view name;   // in --vectors and --mode
  std::string_view field;  // embed's output field
};
inline constexpr VectorKindInfo kVectorKinds[] = {
    {VectorKind::Dense, "dense", "embedding"},
    {VectorKind::Sparse, "sparse", "sparse"},
    {VectorKind::Colbert, "colbert", "colbert"},
};

const VectorKindInfo& vector_kind_info(VectorKind kind);
// A usage error naming `flag` and the known names for anything else.
VectorKind parse_vector_kind(std::string_view name, std::string_view flag);
// A comma-separated list ("dense,sparse"), each kind once, in the order given.
std::vector<VectorKind> parse_vector_kinds(std::string_view list, std::string_view flag);

// Whether `kinds` (a plan's vectors) holds `kind`.
bool has_vector(std::span<const VectorKind> kinds, VectorKind kind);

// What the model gives: a SparseEncoder (SpladePooling) only sparse, a PyLate model only ColBERT
// vectors; any other encoder dense, and sparse and ColBERT too with BGE-M3's sparse_linear and
// colbert_linear heads.
std::vector<VectorKind> offered_vectors(const core::LoadedModel& model);
// What it gives when nobody asks: sparse for a SparseEncoder, else dense (what sentence-transformers
// gives for BGE-M3's folder).
VectorKind default_vector(const core::LoadedModel& model);
// A usage error naming `flag` unless the model offers `kind`.
void require_offered(const core::LoadedModel& model, VectorKind kind, std::string_view flag);

}  // namespace bertkit::cmd
