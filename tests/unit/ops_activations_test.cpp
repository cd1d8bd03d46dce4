// bertkit's own activations (int8's epilogue computes them; oneDNN's post-ops do for f32 and bf16) against
// double references, on every CPU path this machine has, over the whole range an activation meets:
// large negative inputs included, where 1 + erf and the sigmoids must keep their relative accuracy.
#include "core/ops/activations.h"
#include "unit/kernel_paths.h"
#include "unit/reference_math.h"

#include <doctest/doctest.h>

#include <algorithm>
#include <cmath>
#include <vector>

using namespace bertkit::core;

namespace {

// -30 .. 30 in steps of 1/64 and a few values around 0 and the clamp of exp.
std::vector<float> activation_inputs() {
  std::vector<float> x;
  for (int i = -30 * 64; i <= 30 * 64; ++i) x.push_back(static_cast<float>(i) / 64.0f);
  for (float v : {1e-30f, -1e-30f, 1e-6f, -1e-6f, 0.3f, -0.3f, 44.0f, -44.0f, 90.0f, -90.0f, -200.0f}) x.push_back(v);
  return x;
}

double reference(Eltwise f, double x) {
  switch (f) {
    case Eltwise::Gelu: return bktest::reference_gelu(x);
    case Eltwise::GeluTanh: return bktest::reference_gelu_tanh(x);
    case Eltwise::Relu: return std::max(x, 0.0);
    case Eltwise::Silu: return bktest::reference_silu(x);
    case Eltwise::Tanh: return std::tanh(x);
    case Eltwise::Identity: return x;
  }
  return x;
}

}  // namespace

TEST_CASE("own activations match double references within a few float roundings, on every CPU path") {
  const auto x = activation_inputs();
  for (const KernelTable& table : bktest::tables_of_every_path())
    for (Eltwise f : {Eltwise::Gelu, Eltwise::GeluTanh, Eltwise::Relu, Eltwise::Silu, Eltwise::Tanh, Eltwise::Identity}) {
      INFO("path " << cpu_path_name(table.path) << ", activation " << int(f));
      std::vector<float> y = x;
      table.activation_row(y.data(), static_cast<std::int64_t>(y.size()), static_cast<int>(f));
      double worst = 0;
      float worst_at = 0;
      for (std::size_t i = 0; i < x.size(); ++i) {
        // Relative to the value, and absolute near 0 (erf's approximation is absolute: 1.5e-7).
        const double error = std::abs(y[i] - reference(f, x[i])) / std::max(std::abs(reference(f, x[i])), 1.0);
        if (error > worst) worst = error, worst_at = x[i];
      }
      INFO("worst at x = " << worst_at);
      CHECK(worst < 4e-7);  // measured: 2.1e-7 (GELU), 1.1e-7 (tanh's GELU, SiLU), 1e-7 (tanh)
    }
}

TEST_CASE("own activations: far negative inputs give their tiny values, not zero or garbage") {
  std::vector<float> x{-8.0f, -12.0f};
  std::vector<float> gelu = x, silu = x;
  activate_in_place(gelu.data(), 2, Eltwise::Gelu);
  activate_in_place(silu.data(), 2, Eltwise::Silu);
  for (std::size_t i = 0; i < x.size(); ++i) {
    CHECK(gelu[i] == doctest::Approx(bktest::reference_gelu(x[i])).epsilon(1e-4));
    CHECK(silu[i] == doctest::Approx(bktest::reference_silu(x[i])).epsilon(1e-5));
    CHECK(gelu[i] < 0.0f);
  }
}
