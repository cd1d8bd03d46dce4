#pragma once
// A static embedding model's arithmetic: one vector per token id in a table, a text's embedding the
// mean of its tokens' rows, then normalised as the layout says. sentence-transformers' StaticEmbedding
// (nn.EmbeddingBag, mode mean) averages every id; model2vec's StaticModel drops its tokenizer's unknown
// token and keeps the first max_length ids first.
#include "core/tensor.h"

#include <cstddef>
#include <cstdint>
#include <optional>
#include <span>

namespace bertkit::core {

enum class StaticNorm {
  None,
  Clamped,  // x / max(‖x‖, 1e-12): sentence-transformers' Normalize module (F.normalize)
  Epsilon,  // x / (‖x‖ + 1e-32): model2vec's normalize
};

struct StaticRules {
  std::optional<std::int32_t> dropped_id;  // model2vec: the tokenizer model's unknown token, removed
  std::optional<std::size_t> max_ids;      // model2vec: ids kept after the removal (its max_length)
  StaticNorm norm = StaticNorm::None;
};

class StaticEmbedding {
 public:
  // `table`: f32 [rows, dim], valid as long as this object is used.
  StaticEmbedding(const TensorView& table, StaticRules rules);

  std::int64_t dimension() const { return dim_; }
  std::int64_t rows() const { return rows_; }
  const StaticRules& rules() const { return rules_; }

  // The embedding of one text's token ids into `out` (dimension() values): the zero vector when no id
  // is left. BadInput for an id past the table.
  void embed(std::span<const std::int32_t> ids, float* out) const;

 private:
  const float* table_;
  std::int64_t rows_, dim_;
  StaticRules rules_;
};

}  // namespace bertkit::core
