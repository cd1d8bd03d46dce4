#include "core/model/sparse_vector.h"

#include <algorithm>
#include <numeric>

namespace bertkit::core {

SparseVector sparse_from_dense(std::span<const float> row) {
  SparseVector v;
  for (std::size_t id = 0; id < row.size(); ++id)
    if (row[id] > 0) {
      v.indices.push_back(static_cast<std::int32_t>(id));
      v.values.push_back(row[id]);
    }
  return v;
}

void keep_top_k(SparseVector& v, std::size_t k) {
  if (v.indices.size() <= k) return;
  std::vector<std::size_t> order(v.indices.size());
  std::iota(order.begin(), order.end(), std::size_t{0});
  // torch.topk gives no order among equal values; the smaller id first makes the choice reproducible.
  std::partial_sort(order.begin(), order.begin() + static_cast<std::ptrdiff_t>(k), order.end(),
                    [&](std::size_t a, std::size_t b) { return v.values[a] != v.values[b] ? v.values[a] > v.values[b] : a < b; });
  order.resize(k);
  std::sort(order.begin(), order.end());
  SparseVector kept;
  for (std::size_t i : order) {
    kept.indices.push_back(v.indices[i]);
    kept.values.push_back(v.values[i]);
  }
  v = std::move(kept);
}

float sparse_dot(const SparseVector& a, const SparseVector& b) {
  double sum = 0;
  std::size_t i = 0, j = 0;
  while (i < a.indices.size() && j < b.indices.size()) {
    if (a.indices[i] < b.indices[j]) ++i;
    else if (b.indices[j] < a.indices[i]) ++j;
    else sum += static_cast<double>(a.values[i++]) * b.values[j++];
  }
  return static_cast<float>(sum);
}

}  // namespace bertkit::core
