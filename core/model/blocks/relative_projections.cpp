#include "core/model/blocks/relative_projections.h"

#include "core/error.h"

#include <vector>

namespace bertkit::core {

RelativeEmbeddingTensors declare_relative_embeddings(const ModelConfig& config, TensorDecls& decls) {
  const DisentangledAttention& a = config.disentangled;
  RelativeEmbeddingTensors t;
  if (a.relative) {
    if (a.span() <= 0) bad_input("relative_attention needs position_buckets or max_relative_positions above 0");
    t.table = decls.tensor("encoder.rel_embeddings.weight", {2 * std::int64_t{a.span()}, config.hidden_size});
  }
  if (a.norm_relative) t.norm = decls.layer_norm("encoder.LayerNorm", config.hidden_size);
  return t;
}

RelativeProjections::RelativeProjections(const ModelConfig& config, const Weights& weights, Project project)
    : project_(std::move(project)) {
  const DisentangledAttention& a = config.disentangled;
  if (!a.relative || (!a.c2p && !a.p2c)) return;
  TensorDecls decls;
  const RelativeEmbeddingTensors t = declare_relative_embeddings(config, decls);
  table_ = weights.require(t.table->name, t.table->shape);
  if (!is_float(table_.dtype)) bad_input("{} is {}, not a float tensor", t.table->name, dtype_name(table_.dtype));
  if (t.norm) norm_.emplace(weights, *t.norm, config.layer_norm_eps);
  // Reserved, not written: pages are only touched by the rows projected.
  const auto size = static_cast<std::size_t>(table_.numel());
  if (a.p2c) query_.reserve(size);
  if (a.c2p) key_.reserve(size);
}

void RelativeProjections::cover(RelativeRows::Range range) {
  const std::int64_t end = range.first + range.count;
  if (first_ == end_) first_ = end_ = range.first;  // nothing projected yet
  // Rows between a new range and those projected are projected too: they stay one range.
  if (range.first < first_) project_rows(range.first, first_), first_ = range.first;
  if (end > end_) project_rows(end_, end), end_ = end;
}

void RelativeProjections::project_rows(std::int64_t first, std::int64_t end) {
  if (first >= end || empty()) return;
  const std::int64_t rows = end - first, width = table_.shape[1];
  const std::size_t row_bytes = static_cast<std::size_t>(width) * dtype_size(table_.dtype);
  TensorView part = table_;
  part.shape = {rows, width};
  part.data += static_cast<std::size_t>(first) * row_bytes;
  part.nbytes = static_cast<std::size_t>(rows) * row_bytes;
  std::vector<float> x = to_f32(part);
  if (norm_) norm_->apply(x.data(), rows);
  project_(x.data(), rows, query_.data() ? query_.data() + first * width : nullptr,
           key_.data() ? key_.data() + first * width : nullptr);
}

}  // namespace bertkit::core
