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

TEST_CASE("BERTKIT_CPU below avx512: a bf16 model computes in f32 from its bf16 weights, with a warning") {
  bktest::TempDir dir;
  const auto folder = bktest::shared("fixtures/models/minilm-embed").string();
  const auto file = (dir / "bf16.bk").string();
  REQUIRE(bktest::run_bertkit({"convert", "--dtype", "bf16", folder, file}).exit_code == 0);
  for (const char* path : {"avx2", "portable"}) {
    CAPTURE(path);
    bktest::ScopedEnv env("BERTKIT_CPU", path);
    const std::string text = "A man is eating food.";
    auto widened = bktest::run_bertkit({"embed", "-m", file, "--dtype", "f32", text});  // the same values, asked for
    REQUIRE_MESSAGE(widened.exit_code == 0, widened.err);
    const std::string warning =
        "bertkit: warning: this CPU has no AVX-512, which bf16 needs: computing in f32 from the bf16 weights\n";
    for (const auto& args : {std::vector<std::string>{"embed", "-m", file, text},
                             std::vector<std::string>{"embed", "-m", folder, "--dtype", "bf16", text}}) {
      auto r = bktest::run_bertkit(args);
      CHECK(r.exit_code == 0);
      CHECK(r.err == warning);
      CHECK(r.out == widened.out);
    }
    auto dry = bktest::run_bertkit({"embed", "-m", file, "--dry-run"});
    CHECK(dry.out.find("bf16 weights widened: this CPU has no AVX-512, which bf16 needs; as stored)") != std::string::npos);
  }
}
