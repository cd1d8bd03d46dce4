#pragma once
// DeBERTa-v2's layer: BERT's post-LayerNorm layer (its query_proj / key_proj / value_proj are BERT's
// query / key / value) whose attention scores get the disentangled terms over relative positions,
//   score[i, j] = (q_i·k_j + q_i·pk[r(i − j)] + k_j·pq[r(i − j)]) / √(head_dim · (1 + terms))
// (c2p and p2c, each where pos_att_type names it; r: core/model/blocks/deberta_positions.h), where
// pq and pk are the relative embeddings (encoder.rel_embeddings, through encoder.LayerNorm when
// norm_rel_ebd says so) projected by the layer's own query / key projections (share_att_key) or by its
// pos_query_proj / pos_key_proj, as a batch first reaches them (core/model/blocks/relative_projections.h).
// Per sequence it multiplies every head's queries and keys by them (only the rows the sequence's length
// reaches) and the attention kernels add the gathered terms a tile at a time (ScoreTerm, by
// core/ops/disentangled_terms.h), so no [heads, n, n] matrix is ever made: memory stays linear in n.
#include "core/model/blocks/bert_block.h"
#include "core/model/blocks/deberta_positions.h"
#include "core/model/blocks/relative_projections.h"

#include <cstdint>
#include <optional>
#include <span>
#include <vector>

namespace bertkit::core {

struct DebertaBlockTensors {
  RelativeEmbeddingTensors relative;              // layer 0's only
  std::optional<LinearDecl> pos_query, pos_key;  // share_att_key false: the positions' own projections
};

// One batch's c2p and p2c products, read by the attention kernels from every thread. Each sequence
// has its own, over the relative rows its own length reads (RelativeRows::range), so that its numbers
// do not depend on the batch it came in: [c2p, p2c][heads][its tokens][its rows], from its base.
struct DisentangledTerms {
  std::span<const std::int64_t> offsets;  // the batch's
  std::vector<std::int64_t> bases;       // per sequence, where its products start
  const float* products = nullptr;
  bool c2p = false, p2c = false;  // q · pk (scaled), then k · pq (scaled)
  int heads = 0;
  const RelativeRows* rows = nullptr;
};

class DebertaBlock : public BertBlock {
 public:
  static DebertaBlockTensors declare(const ModelConfig& config, int index, TensorDecls& decls);
  DebertaBlock(const ModelConfig& config, const Weights& weights, int index);

  void add_packed_to(const Weights& source, Weights& weights) const override;
  void prepare(std::int64_t longest) const override;

 protected:
  ScoreModifier score_modifier(const float* qkv, std::span<const std::int64_t> offsets, LayerScratch& scratch,
                               const LayerContext& context) const override;

 private:
  DisentangledAttention attention_;
  float scale_;
  DebertaBlockTensors tensors_;
  Linear pos_query_, pos_key_;  // share_att_key false: the positions' own projections, where used
  // This batch's rows, terms and the projections they read; an encoder runs one batch at a time.
  mutable RelativeProjections positions_;
  mutable RelativeRows rows_;
  mutable DisentangledTerms terms_;
};

}  // namespace bertkit::core
