#include "cli/default_threads.h"

#include <doctest/doctest.h>

using bertkit::cli::quota_cpus;

TEST_CASE("default threads: a cgroup CPU quota's whole CPUs") {
  CHECK(quota_cpus("max 100000\n") == std::nullopt);              // v2, no quota
  CHECK(quota_cpus("200000 100000\n") == 2);                      // v2, two CPUs
  CHECK(quota_cpus("150000 100000\n") == 1);                      // one and a half: one whole
  CHECK(quota_cpus("50000 100000\n") == 1);                       // at least one
  CHECK(quota_cpus("-1\n", "100000\n") == std::nullopt);          // v1, no quota
  CHECK(quota_cpus("400000\n", "100000\n") == 4);                 // v1
  CHECK(quota_cpus("garbage") == std::nullopt);
  CHECK(quota_cpus("100000 0") == std::nullopt);
}
