#include "core/ops/reduced_activations.h"
#include "core/tensor.h"
#include "unit/reference_math.h"

#include <doctest/doctest.h>

#include <algorithm>
#include <cmath>

TEST_CASE("quantize_u8: every value within half a step, zero exact, rounding as nearbyint") {
  for (std::size_t n : {std::size_t{5}, std::size_t{1000 + 7}, std::size_t{1} << 17}) {  // tail, vector, threads
    CAPTURE(n);
    auto x = bktest::random_floats(n, 31, -1.5f, 3.0f);
    x[n / 2] = 0.0f;
    std::vector<std::uint8_t> q(n);
    auto quant = bertkit::core::quantize_u8(x.data(), n, q.data());
    const auto [lo, hi] = std::minmax_element(x.begin(), x.end());
    CHECK(quant.scale == doctest::Approx((std::max(*hi, 0.0f) - std::min(*lo, 0.0f)) / 255.0f));
    CHECK(q[n / 2] == quant.zero_point);
    int wrong = 0;
    for (std::size_t i = 0; i < n; ++i) {
      float expected = std::clamp(std::nearbyint(x[i] * (1.0f / quant.scale)) + float(quant.zero_point), 0.0f, 255.0f);
      wrong += q[i] != static_cast<std::uint8_t>(expected);
      wrong += std::abs((q[i] - quant.zero_point) * quant.scale - x[i]) > quant.scale * 0.5001f;
    }
    CHECK(wrong == 0);
  }
  std::vector<float> zeros(9, 0.0f);
  std::vector<std::uint8_t> q(9, 7);
  auto quant = bertkit::core::quantize_u8(zeros.data(), zeros.size(), q.data());
  CHECK(quant.zero_point == 0);
  CHECK(std::all_of(q.begin(), q.end(), [](std::uint8_t v) { return v == 0; }));
}

TEST_CASE("round_to_bf16 rounds every value as f32_to_bf16 does") {
  const std::size_t n = (std::size_t{1} << 17) + 3;
  auto x = bktest::random_floats(n, 32, -100.0f, 100.0f);
  std::vector<std::uint16_t> out(n);
  bertkit::core::round_to_bf16(x.data(), n, out.data());
  int wrong = 0;
  for (std::size_t i = 0; i < n; ++i) wrong += out[i] != bertkit::core::f32_to_bf16(x[i]);
  CHECK(wrong == 0);
}
