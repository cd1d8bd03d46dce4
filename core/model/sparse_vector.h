#pragma once
// A learned-sparse embedding (SPLADE, BGE-M3's lexical weights): the vocabulary ids with a weight, in
// ascending id order, as sparse indexes (Qdrant and others) take them.
#include <cstddef>
#include <cstdint>
#include <span>
#include <vector>

namespace bertkit::core {

struct SparseVector {
  std::vector<std::int32_t> indices;  // ascending
  std::vector<float> values;          // one per index, > 0
};

// The positive entries of a dense row over the vocabulary, in id order.
SparseVector sparse_from_dense(std::span<const float> row);

// The `k` largest values (on equal values the smaller id first), still in ascending id order; all of
// them when there are no more than k.
void keep_top_k(SparseVector& v, std::size_t k);

// Σ over the ids present in both of a[id]·b[id]: SparseEncoder's dot similarity and BGE-M3's lexical
// matching score.
float sparse_dot(const SparseVector& a, const SparseVector& b);

}  // namespace bertkit::core
