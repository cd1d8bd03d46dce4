#pragma once
// DeBERTa-v2's relative embeddings as a layer's disentangled attention reads them: the rows of
// encoder.rel_embeddings, through encoder.LayerNorm where norm_rel_ebd says so, projected by the layer's
// query and key projections (pq for p2c, pk for c2p). They depend on the weights alone, but a sequence
// of n tokens reads only the rows its relative positions reach (RelativeRows::range, at most 2n − 1), so
// rows are projected when a batch first reaches them, not at load: one sentence through
// deberta-v3-base projected all 512 rows through Q|K|V in each of its 12 layers first (21.7 GFLOP, most
// of its start-up). A layer computes each row by itself (core/ops/linear.h), so a row has the same value
// whichever batch first reached it.
#include "core/checkpoint/weights.h"
#include "core/model/blocks/deberta_positions.h"
#include "core/model/config.h"
#include "core/model/layer_norm_weights.h"
#include "core/model/tensor_decls.h"
#include "core/ops/buffer.h"

#include <cstdint>
#include <functional>
#include <optional>

namespace bertkit::core {

// The encoder's relative embeddings and their LayerNorm, which every layer reads; declared with layer 0.
// transformers builds the LayerNorm whenever norm_rel_ebd names it, relative attention or not.
struct RelativeEmbeddingTensors {
  std::optional<TensorDecl> table;  // [2·span, hidden], with relative_attention
  std::optional<NormDecl> norm;
};
RelativeEmbeddingTensors declare_relative_embeddings(const ModelConfig& config, TensorDecls& decls);

class RelativeProjections {
 public:
  // project(x, rows, pq, pk): rows of x ([rows, hidden], normalised relative embeddings) projected into
  // the first rows of pq and of pk ([rows, hidden] each; nullptr where that term is not wanted).
  using Project = std::function<void(const float* x, std::int64_t rows, float* pq, float* pk)>;

  RelativeProjections() = default;
  // The layer's projections of the table `weights` holds for `config`, for the terms it computes (none:
  // nothing is read or kept). `weights` must outlive this (the table is read as rows are reached).
  RelativeProjections(const ModelConfig& config, const Weights& weights, Project project);

  // Projects the rows of `range` not projected yet. Not thread-safe: the encoder runs one batch at a time.
  void cover(RelativeRows::Range range);

  // [2·span, hidden], valid over every range covered; nullptr for a term the layer does not compute.
  const float* query() const { return query_.data(); }
  const float* key() const { return key_.data(); }
  bool empty() const { return !query() && !key(); }

 private:
  TensorView table_;
  std::optional<LayerNormWeights> norm_;
  Project project_;
  FloatBuffer query_, key_;
  std::int64_t first_ = 0, end_ = 0;  // the rows projected so far: first_ .. end_

  void project_rows(std::int64_t first, std::int64_t end);
};

}  // namespace bertkit::core
