// LayerNorm without a bias (ModernBERT's) and RMSNorm, each against a plain double reference on every
// CPU path this machine has (the kernel table of each path, as a CPU of that path would build it).
#include "core/ops/layer_norm.h"
#include "core/ops/rms_norm.h"
#include "unit/kernel_paths.h"
#include "unit/reference_math.h"

#include <doctest/doctest.h>

#include <cmath>
#include <vector>

using namespace bertkit::core;

namespace {

// y = gamma · x / sqrt(mean(x²) + eps), in double.
void reference_rms_norm(std::vector<double>& row, const std::vector<float>& gamma, double eps) {
  double squares = 0;
  for (double v : row) squares += v * v;
  const double rms = std::sqrt(squares / double(row.size()) + eps);
  for (std::size_t j = 0; j < row.size(); ++j) row[j] = row[j] / rms * gamma[j];
}

}  // namespace

TEST_CASE("layer norm without a bias matches a double reference with a zero bias, on every CPU path") {
  for (const KernelTable& table : bktest::tables_of_every_path())
    for (std::int64_t n : {1, 5, 32, 384, 771}) {
      INFO("path " << cpu_path_name(table.path) << ", n " << n);
      auto x = bktest::random_floats(n, 61, 5.0f, 9.0f);  // offset mean: catches one-pass variance
      const auto gamma = bktest::random_floats(n, 62);
      const std::vector<float> zero(n, 0.0f);
      std::vector<float> y(x.size());
      table.layer_norm_row(x.data(), y.data(), n, gamma.data(), nullptr, 1e-5f);  // into another buffer
      std::vector<double> row(x.begin(), x.end());
      bktest::reference_layer_norm(row, gamma, zero, 1e-5);
      double worst = 0;
      for (std::int64_t j = 0; j < n; ++j) worst = std::max(worst, std::abs(y[j] - row[j]));
      CHECK(worst < 2e-5);
      auto with_zero_bias = x;  // a null bias is a bias of zeros, bit for bit
      table.layer_norm_row(with_zero_bias.data(), with_zero_bias.data(), n, gamma.data(), zero.data(), 1e-5f);
      CHECK(with_zero_bias == y);
    }
  std::vector<float> x{1.0f, 2.0f, 4.0f}, gamma{1.0f, 1.0f, 1.0f};
  layer_norm(x.data(), 1, 3, gamma.data(), nullptr, 0.0f);  // the process's path, through layer_norm
  CHECK(x[0] + x[1] + x[2] == doctest::Approx(0.0).epsilon(1e-6));
  CHECK(x[2] == doctest::Approx(5.0 / 3.0 / std::sqrt(14.0 / 9.0)).epsilon(1e-6));
}

TEST_CASE("rms norm matches a double reference on every CPU path, and subtracts no mean") {
  for (const KernelTable& table : bktest::tables_of_every_path())
    for (std::int64_t n : {1, 5, 32, 384, 771}) {
      INFO("path " << cpu_path_name(table.path) << ", n " << n);
      const std::int64_t rows = 9;
      auto x = bktest::random_floats(rows * n, 63, -3.0f, 7.0f);
      const auto gamma = bktest::random_floats(n, 64, 0.5f, 2.0f);
      auto y = x;
      for (std::int64_t r = 0; r < rows; ++r) table.rms_norm_row(y.data() + r * n, n, gamma.data(), 1e-6f);
      double worst = 0;
      for (std::int64_t r = 0; r < rows; ++r) {
        std::vector<double> row(x.begin() + r * n, x.begin() + (r + 1) * n);
        reference_rms_norm(row, gamma, 1e-6);
        for (std::int64_t j = 0; j < n; ++j) worst = std::max(worst, std::abs(y[r * n + j] - row[j]) / (1 + std::abs(row[j])));
      }
      CHECK(worst < 2e-6);
    }
  // A constant row stays constant (LayerNorm would give zeros), and eps counts.
  std::vector<float> x(4, 3.0f), gamma(4, 2.0f);
  rms_norm(x.data(), 1, 4, gamma.data(), 0.0f);
  for (float v : x) CHECK(v == doctest::Approx(2.0).epsilon(1e-6));
  std::vector<float> small(4, 1e-3f);
  rms_norm(small.data(), 1, 4, gamma.data(), 1e-6f);
  CHECK(small[0] == doctest::Approx(2.0 * 1e-3 / std::sqrt(1e-6 + 1e-6)).epsilon(1e-5));
}
