// Sparse vectors: built from a dense vocabulary row, cut to the top k, compared by dot product.
#include "core/model/sparse_vector.h"

#include <doctest/doctest.h>

#include <vector>

using bertkit::core::SparseVector;

TEST_CASE("sparse_vector: positive entries of a dense row, in id order") {
  const std::vector<float> row{0.0f, 0.5f, -1.0f, 0.0f, 2.0f};
  const SparseVector v = bertkit::core::sparse_from_dense(row);
  CHECK(v.indices == std::vector<std::int32_t>{1, 4});
  CHECK(v.values == std::vector<float>{0.5f, 2.0f});
}

TEST_CASE("sparse_vector: top k keeps the largest values, the smaller id on a tie, in ascending id order") {
  SparseVector v{{2, 5, 7, 9, 11}, {0.3f, 0.9f, 0.5f, 0.5f, 0.1f}};
  bertkit::core::keep_top_k(v, 3);
  CHECK(v.indices == std::vector<std::int32_t>{5, 7, 9});
  CHECK(v.values == std::vector<float>{0.9f, 0.5f, 0.5f});
  SparseVector tie{{2, 5, 7}, {0.5f, 0.5f, 0.5f}};
  bertkit::core::keep_top_k(tie, 2);
  CHECK(tie.indices == std::vector<std::int32_t>{2, 5});
  SparseVector small{{3}, {1.0f}};
  bertkit::core::keep_top_k(small, 4);
  CHECK(small.indices == std::vector<std::int32_t>{3});
}

TEST_CASE("sparse_vector: the dot product sums over the ids both have") {
  const SparseVector a{{1, 4, 8}, {2.0f, 3.0f, 1.0f}};
  const SparseVector b{{0, 4, 8, 9}, {5.0f, 0.5f, 4.0f, 7.0f}};
  CHECK(bertkit::core::sparse_dot(a, b) == doctest::Approx(3.0 * 0.5 + 1.0 * 4.0));
  CHECK(bertkit::core::sparse_dot(a, SparseVector{}) == 0.0f);
}
