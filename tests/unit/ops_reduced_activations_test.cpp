#include "core/ops/reduced_activations.h"
#include "core/tensor.h"
#include "unit/reference_math.h"

#include <doctest/doctest.h>

#include <algorithm>
#include <cmath>

TEST_CASE("quantize_s8_rows: each row on its own scale, every value within half a step, rounding as nearbyint") {
  // Rows of 5 (a tail only), 1000 + 7 (vectors and a tail), and enough of them to use threads.
  for (const auto& shape : {std::pair<std::size_t, std::size_t>{3, 5}, {4, 1007}, {200, 384}}) {
    const std::size_t rows = shape.first, columns = shape.second;
    CAPTURE(columns);
    auto x = bktest::random_floats(rows * columns, 31, -1.5f, 3.0f);
    for (std::size_t c = 0; c < columns; ++c) {
      x[c] *= 1000.0f;         // an outlier row...
      x[columns + c] = 0.0f;   // ...and an all-zero one
    }
    std::vector<std::int8_t> q(rows * columns);
    std::vector<float> scales(rows);
    bertkit::core::quantize_s8_rows(x.data(), rows, columns, q.data(), scales.data());
    CHECK(scales[1] == 0.0f);
    int wrong = 0;
    for (std::size_t r = 0; r < rows; ++r) {
      const float* row = x.data() + r * columns;
      float largest = 0;
      for (std::size_t c = 0; c < columns; ++c) largest = std::max(largest, std::abs(row[c]));
      wrong += scales[r] != largest / 127.0f;
      const float inverse = largest > 0 ? 127.0f / largest : 0.0f;
      for (std::size_t c = 0; c < columns; ++c) {
        const std::int8_t v = q[r * columns + c];
        wrong += v != static_cast<std::int8_t>(std::nearbyint(row[c] * inverse));
        wrong += v < -127;
        wrong += std::abs(v * scales[r] - row[c]) > scales[r] * 0.5001f;
      }
    }
    CHECK(wrong == 0);
  }
}

TEST_CASE("quantize_s8_rows: a row's bytes and scale do not depend on the rows around it") {
  const std::size_t rows = 300, columns = 512;  // enough to use threads
  auto x = bktest::random_floats(rows * columns, 33, -4.0f, 1.0f);
  std::vector<std::int8_t> all(rows * columns), one(columns);
  std::vector<float> all_scales(rows), one_scale(1);
  bertkit::core::quantize_s8_rows(x.data(), rows, columns, all.data(), all_scales.data());
  for (std::size_t r : {std::size_t{0}, std::size_t{77}, rows - 1}) {
    CAPTURE(r);
    bertkit::core::quantize_s8_rows(x.data() + r * columns, 1, columns, one.data(), one_scale.data());
    CHECK(one_scale[0] == all_scales[r]);
    CHECK(std::equal(one.begin(), one.end(), all.begin() + static_cast<std::ptrdiff_t>(r * columns)));
  }
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
