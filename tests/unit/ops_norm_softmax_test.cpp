#include "core/ops/layer_norm.h"
#include "core/ops/simd.h"
#include "core/ops/softmax.h"
#include "unit/reference_math.h"

#include <doctest/doctest.h>

#include <cmath>
#include <limits>

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

TEST_CASE("layer_norm into another buffer equals it in place, and leaves its input alone") {
  const std::int64_t rows = 40, n = 768;  // enough work for a thread team
  const auto x = bktest::random_floats(static_cast<std::size_t>(rows * n), 7, -3.0f, 3.0f);
  const auto gamma = bktest::random_floats(static_cast<std::size_t>(n), 8, 0.5f, 1.5f);
  for (bool with_bias : {true, false}) {
    const auto beta = bktest::random_floats(static_cast<std::size_t>(n), 9, -0.5f, 0.5f);
    auto in_place = x;
    std::vector<float> into(x.size());
    bertkit::core::layer_norm(in_place.data(), rows, n, gamma.data(), with_bias ? beta.data() : nullptr, 1e-5f);
    auto input = x;
    bertkit::core::layer_norm(input.data(), into.data(), rows, n, gamma.data(), with_bias ? beta.data() : nullptr, 1e-5f);
    CHECK(into == in_place);
    CHECK(input == x);
  }
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
  // Below the cutoff exactly 0, never a value that a softmax's division turns into a subnormal.
  CHECK(bertkit::core::exp_nonpositive(-87.5f) == 0.0f);
  CHECK(bertkit::core::exp_nonpositive(-1e30f) == 0.0f);
  CHECK(bertkit::core::exp_nonpositive(-std::numeric_limits<float>::infinity()) == 0.0f);
}

TEST_CASE("softmax_rows gives masked and far-below-the-maximum scores exactly 0") {
  // A sliding window's masked keys (−∞) and a score 100 below the row's maximum: torch gives them 0
  // (or a subnormal, which no 1e-4 comparison sees); a subnormal here would cost a microcode assist
  // per product in the attention's P·V on Intel cores.
  const float masked = -std::numeric_limits<float>::infinity();
  std::vector<float> x{masked, 2.0f, masked, 1.0f, -98.0f, masked, 0.5f, masked, masked, masked, masked, masked,
                       masked, masked, masked, masked, masked, 3.0f};
  auto y = x;
  bertkit::core::softmax_rows(y.data(), 1, static_cast<std::int64_t>(y.size()));
  for (std::size_t j = 0; j < x.size(); ++j) {
    CAPTURE(j);
    if (x[j] == masked || x[j] < -90.0f)
      CHECK(y[j] == 0.0f);
    else
      CHECK(std::fpclassify(y[j]) == FP_NORMAL);
  }
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
