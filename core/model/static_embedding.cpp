#include "core/model/static_embedding.h"

#include "core/error.h"

#include <algorithm>
#include <cmath>
#include <vector>

namespace bertkit::core {

StaticEmbedding::StaticEmbedding(const TensorView& table, StaticRules rules)
    : table_(table.f32().data()), rows_(table.shape.at(0)), dim_(table.shape.at(1)), rules_(rules) {}

void StaticEmbedding::embed(std::span<const std::int32_t> ids, float* out) const {
  const auto dim = static_cast<std::size_t>(dim_);
  // Sums in double: a text without truncation may have millions of tokens.
  thread_local std::vector<double> sum;
  sum.assign(dim, 0.0);
  std::size_t count = 0;
  for (const std::int32_t id : ids) {
    if (rules_.dropped_id && id == *rules_.dropped_id) continue;
    if (rules_.max_ids && count == *rules_.max_ids) break;
    if (id < 0 || id >= rows_)
      bad_input("token id {} has no row in the embedding table ({} rows): the tokenizer does not fit the table", id,
                rows_);
    const float* row = table_ + static_cast<std::size_t>(id) * dim;
    for (std::size_t d = 0; d < dim; ++d) sum[d] += row[d];
    ++count;
  }
  if (count == 0) {
    std::fill_n(out, dim, 0.0f);
    return;
  }
  double norm = 0;
  for (std::size_t d = 0; d < dim; ++d) {
    sum[d] /= static_cast<double>(count);
    norm += sum[d] * sum[d];
  }
  norm = std::sqrt(norm);
  const double scale = rules_.norm == StaticNorm::Clamped   ? 1.0 / std::max(norm, 1e-12)
                       : rules_.norm == StaticNorm::Epsilon ? 1.0 / (norm + 1e-32)
                                                            : 1.0;
  for (std::size_t d = 0; d < dim; ++d) out[d] = static_cast<float>(sum[d] * scale);
}

}  // namespace bertkit::core
