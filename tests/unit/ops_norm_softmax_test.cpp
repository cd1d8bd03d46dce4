#include "core/ops/layer_norm.h"
#include "core/ops/simd.h"
#include "core/ops/softmax.h"
#include "unit/reference_math.h"

#include <doctest/doctest.h>

#include <cmath>

TEST_CASE("layer_norm matches a double reference, with a large mean and several row lengths") {
  for (std::int64_t n : {1, 5, 32, 384, 771}) {
    const std::int64_t rows = 33;
    auto x = bktest::random_floats(rows * n, 31, 5.0f, 9.0f);  // offset mean: catches one-pass variance
    auto gamma = bktest::random_floats(n, 32);
    auto beta = bktest::random_floats(n, 33);
    auto y = x;
    bertkit::core::layer_norm(y.data(), rows, n, gamma.data(), beta.data(), 1e-12f);
    double worst = 0;
    for (std::int64_t r = 0; r < rows; ++r) {
      std::vector<double> row(x.begin() + r * n, x.begin() + (r + 1) * n);
      bktest::reference_layer_norm(row, gamma, beta, 1e-12);
      for (std::int64_t j = 0; j < n; ++j) worst = std::max(worst, std::abs(y[r * n + j] - row[j]));
    }
    INFO("n " << n);
    CHECK(worst < (n == 1 ? 1e-6 : 2e-5));
  }
}

TEST_CASE("layer_norm honours eps") {
  std::vector<float> x{1.0f, 1.001f, 0.999f, 1.0f}, gamma(4, 1.0f), beta(4, 0.0f);
  auto y = x;
  bertkit::core::layer_norm(y.data(), 1, 4, gamma.data(), beta.data(), 1e-3f);
  std::vector<double> row(x.begin(), x.end());
  bktest::reference_layer_norm(row, gamma, beta, 1e-3);
  for (int j = 0; j < 4; ++j) CHECK(y[j] == doctest::Approx(row[j]).epsilon(1e-4));
}

TEST_CASE("exp_nonpositive is within a few ulp of exp on [-87, 0]") {
  double worst = 0;
  for (int i = 0; i <= 870000; ++i) {
    float x = -static_cast<float>(i) * 1e-4f;
    double expected = std::exp(double(x));
    worst = std::max(worst, std::abs(bertkit::core::exp_nonpositive(x) - expected) / expected);
  }
  CHECK(worst < 3e-7);
  CHECK(bertkit::core::exp_nonpositive(0.0f) == 1.0f);
  CHECK(bertkit::core::exp_nonpositive(-1e30f) < 1e-37f);
}

TEST_CASE("softmax_rows matches a double reference, large logits included") {
  for (std::int64_t n : {1, 3, 16, 127, 1000}) {
    const std::int64_t rows = 20;
    auto x = bktest::random_floats(rows * n, 41, -30.0f, 30.0f);
    x[0] = 1e4f;  // a dominant logit must not overflow
    auto y = x;
    bertkit::core::softmax_rows(y.data(), rows, n);
    for (std::int64_t r = 0; r < rows; ++r) {
      std::vector<double> row(x.begin() + r * n, x.begin() + (r + 1) * n);
      bktest::reference_softmax(row);
      double sum = 0;
      for (std::int64_t j = 0; j < n; ++j) {
        sum += y[r * n + j];
        CHECK(std::abs(y[r * n + j] - row[j]) < 1e-6);
      }
      CHECK(sum == doctest::Approx(1.0).epsilon(1e-5));
    }
  }
}
