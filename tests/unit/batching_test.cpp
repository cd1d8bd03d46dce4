#include "core/model/batching.h"

#include <doctest/doctest.h>

#include <algorithm>

using bertkit::core::BatchLimits;
using bertkit::core::plan_batches;

TEST_CASE("plan_batches: every input once, longest first, within the limits") {
  std::vector<std::int64_t> lengths{5, 120, 7, 7, 300, 1, 64, 64, 2};
  auto batches = plan_batches(lengths, BatchLimits{200, 3});
  std::vector<std::size_t> seen;
  std::int64_t previous = INT64_MAX;
  for (const auto& batch : batches) {
    CHECK(!batch.empty());
    CHECK(batch.size() <= 3);
    std::int64_t tokens = 0;
    for (auto i : batch) {
      tokens += lengths[i];
      CHECK(lengths[i] <= previous);
      previous = lengths[i];
      seen.push_back(i);
    }
    CHECK((tokens <= 200 || batch.size() == 1));  // only an input longer than the budget stands alone over it
  }
  std::sort(seen.begin(), seen.end());
  std::vector<std::size_t> all(lengths.size());
  for (std::size_t i = 0; i < all.size(); ++i) all[i] = i;
  CHECK(seen == all);
  CHECK(batches.front() == std::vector<std::size_t>{4});     // 300 tokens: alone
  CHECK(batches[1] == std::vector<std::size_t>{1, 6});       // 120 + 64; the next 64 would exceed 200
  CHECK(batches[2] == std::vector<std::size_t>{7, 2, 3});    // equal lengths keep input order
}

TEST_CASE("plan_batches: nothing to do, and limits that allow nothing") {
  CHECK(plan_batches({}, BatchLimits{}).empty());
  std::vector<std::int64_t> one{3};
  CHECK_THROWS(plan_batches(one, BatchLimits{0, 4}));
  CHECK_THROWS(plan_batches(one, BatchLimits{10, 0}));
}
