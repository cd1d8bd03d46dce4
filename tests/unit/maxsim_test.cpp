// MaxSim, late interaction's score: PyLate sums each query vector's best match, BGE-M3 averages them.
#include "core/model/maxsim.h"

#include <doctest/doctest.h>

#include <vector>

using bertkit::core::maxsim;
using bertkit::core::MaxSimReduction;

TEST_CASE("maxsim sums (PyLate) or averages (BGE-M3) each query vector's best dot product") {
  // Two query vectors, three document vectors, dimension 2.
  const std::vector<float> query{1, 0, 0, 1};
  const std::vector<float> document{0.5f, 0.5f, 0.25f, -1, 0.9f, 0.1f};
  // Query 0's best is 0.9 (document row 2), query 1's 0.5 (row 0).
  CHECK(maxsim(query, document, 2, MaxSimReduction::Sum) == doctest::Approx(1.4));
  CHECK(maxsim(query, document, 2, MaxSimReduction::Mean) == doctest::Approx(0.7));
  // A best match below zero counts as it is (one pair, no padding).
  const std::vector<float> opposite{-1, 0, 0, -1};
  CHECK(maxsim(query, opposite, 2, MaxSimReduction::Sum) == doctest::Approx(0.0));
  const std::vector<float> negative{-1, -1};
  CHECK(maxsim(query, negative, 2, MaxSimReduction::Sum) == doctest::Approx(-2.0));
  CHECK(maxsim(query, {}, 2, MaxSimReduction::Sum) == doctest::Approx(0.0));
}
