#include "core/ops/cpu_features.h"
#include "support.h"

#include <doctest/doctest.h>

#include <string>

namespace {

// The first line of `bench`'s table: it names the CPU path.
std::string bench_header(const std::string& path) {
  bktest::ScopedEnv env("BERTKIT_CPU", path);
  auto r = bktest::run_bertkit({"bench", "--shape", "minilm-l6", "--workloads", "1x8", "--threads", "1",
                                "--min-time", "0", "--runs", "1"});
  REQUIRE_MESSAGE(r.exit_code == 0, r.err);
  return bktest::split_lines(r.out).at(0);
}

}  // namespace

TEST_CASE("BERTKIT_CPU: an unknown value is a usage error naming the values it takes") {
  bktest::ScopedEnv env("BERTKIT_CPU", "avx9");
  auto r = bktest::run_bertkit({"tokenize", "hello"});
  CHECK(r.exit_code == 2);
  CHECK(r.out.empty());
  CHECK(r.err == "bertkit: error: BERTKIT_CPU=\"avx9\": expected portable, avx2 or avx512\n");
}

TEST_CASE("BERTKIT_CPU: bench names the path it runs, a lower one when asked") {
  using bertkit::core::CpuPath;
  const CpuPath best = bertkit::core::best_path(bertkit::core::detect_cpu_features());
  CHECK(bench_header("portable").ends_with("; CPU path portable"));
  if (best >= CpuPath::Avx2) CHECK(bench_header("avx2").ends_with("; CPU path avx2"));
  if (best < CpuPath::Avx512) {  // asking for more than the CPU has: a warning, and its best path
    bktest::ScopedEnv env("BERTKIT_CPU", "avx512");
    auto r = bktest::run_bertkit({"tokenize", "hello"});
    CHECK(r.exit_code == 0);
    CHECK(r.err.find("bertkit: warning: BERTKIT_CPU=avx512: this CPU has no AVX-512F") == 0);
  }
}
