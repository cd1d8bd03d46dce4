// Rotary position embedding against a plain double reference, on every CPU path this machine has: both
// layouts, a rotary fraction below 1, packed sequences whose positions restart, the fused Q | K | V rows.
#include "core/error.h"
#include "core/ops/rotary.h"
#include "unit/kernel_paths.h"
#include "unit/reference_math.h"

#include <doctest/doctest.h>

#include <cmath>
#include <vector>

using namespace bertkit::core;

namespace {

// transformers' inv_freq, written from its definition: 1 / theta^(2i/d), each step rounded to float32.
float transformers_inverse_frequency(double theta, std::int64_t i, std::int64_t rotary_dim) {
  const float exponent = float(2 * i) / float(rotary_dim);
  return 1.0f / float(std::pow(theta, double(exponent)));
}

// Head vector x (head_dim floats) of a token at `position`, rotated: pairs (c, c + r/2) (Half) or
// (2c, 2c + 1) (Interleaved) of the first r floats turn by the float32 angle position · inv_freq[c].
std::vector<double> reference_rotate(const float* x, std::int64_t head_dim, std::int64_t r, double theta,
                                     RotaryLayout layout, std::int64_t position) {
  std::vector<double> out(x, x + head_dim);
  for (std::int64_t c = 0; c < r / 2; ++c) {
    const double angle = float(position) * transformers_inverse_frequency(theta, c, r);
    const double cos = float(std::cos(angle)), sin = float(std::sin(angle));
    const std::int64_t a = layout == RotaryLayout::Half ? c : 2 * c;
    const std::int64_t b = layout == RotaryLayout::Half ? c + r / 2 : 2 * c + 1;
    out[a] = x[a] * cos - x[b] * sin;
    out[b] = x[b] * cos + x[a] * sin;
  }
  return out;
}

void check_rotary(const KernelTable& table, std::int64_t head_dim, std::int64_t rotary_dim, float theta,
                  RotaryLayout layout) {
  INFO("path " << cpu_path_name(table.path) << ", head " << head_dim << ", rotary " << rotary_dim << ", theta "
               << theta << (layout == RotaryLayout::Half ? ", half" : ", interleaved"));
  const int heads = 3;
  const std::int64_t hidden = heads * head_dim, stride = 3 * hidden;
  const std::vector<std::int64_t> offsets{0, 1, 9, 140, 403};  // lengths 1, 8, 131, 263
  const std::int64_t tokens = offsets.back();
  const auto qkv = bktest::random_floats(tokens * stride, 71, -2.0f, 2.0f);
  auto rotated = qkv;
  RotaryEmbedding rotary({head_dim, rotary_dim, theta, layout});
  rotary.apply(rotated.data(), stride, 2 * heads, offsets, table);

  double worst = 0;
  bool untouched = true;
  for (std::size_t s = 0; s + 1 < offsets.size(); ++s)
    for (std::int64_t t = offsets[s]; t < offsets[s + 1]; ++t) {
      for (int v = 0; v < 2 * heads; ++v) {  // Q's heads, then K's
        const float* x = qkv.data() + t * stride + v * head_dim;
        const auto expected = reference_rotate(x, head_dim, rotary_dim, theta, layout, t - offsets[s]);
        for (std::int64_t c = 0; c < head_dim; ++c) {
          const float got = rotated[t * stride + v * head_dim + c];
          worst = std::max(worst, std::abs(got - expected[c]));
          if (c >= rotary_dim) untouched = untouched && got == x[c];  // past the rotary fraction: as they were
        }
      }
      for (std::int64_t c = 2 * hidden; c < stride; ++c)  // V is not rotated
        untouched = untouched && rotated[t * stride + c] == qkv[t * stride + c];
    }
  CHECK(worst < 2e-6);
  CHECK(untouched);
}

}  // namespace

TEST_CASE("rotary inverse frequencies are transformers' float32 ones") {
  for (float theta : {10000.0f, 160000.0f})
    for (std::int64_t d : {16, 64, 32}) {
      RotaryEmbedding rotary({64, d, theta, RotaryLayout::Half});
      REQUIRE(rotary.inverse_frequencies().size() == std::size_t(d / 2));
      CHECK(rotary.inverse_frequencies()[0] == 1.0f);
      for (std::int64_t i = 0; i < d / 2; ++i) {
        CHECK(rotary.inverse_frequencies()[i] == transformers_inverse_frequency(theta, i, d));
        const double exact = std::pow(double(theta), -2.0 * double(i) / double(d));
        CHECK(std::abs(rotary.inverse_frequencies()[i] - exact) <= 2.5e-7 * exact);  // two float roundings
      }
    }
}

TEST_CASE("rotary embedding matches the reference on every CPU path: both layouts, partial rotation, packed "
          "sequences" * doctest::test_suite("threads")) {
  for (const KernelTable& table : bktest::tables_of_every_path())
    for (RotaryLayout layout : {RotaryLayout::Half, RotaryLayout::Interleaved}) {
      check_rotary(table, 16, 16, 160000.0f, layout);  // ModernBERT's global layers (its test fixtures' head)
      check_rotary(table, 64, 64, 10000.0f, layout);   // its local layers
      check_rotary(table, 64, 32, 10000.0f, layout);   // a rotary fraction of 1/2
      check_rotary(table, 20, 6, 500.0f, layout);      // odd pairs and sizes no vector divides
    }
}

TEST_CASE("rotary embedding: the two layouts differ, position 0 is the identity, and a bad spec is refused") {
  const std::vector<std::int64_t> offsets{0, 2};
  const auto x = bktest::random_floats(2 * 8, 72);
  auto half = x, interleaved = x;
  RotaryEmbedding({8, 8, 10000.0f, RotaryLayout::Half}).apply(half.data(), 8, 1, offsets);
  RotaryEmbedding({8, 8, 10000.0f, RotaryLayout::Interleaved}).apply(interleaved.data(), 8, 1, offsets);
  CHECK(std::vector<float>(half.begin(), half.begin() + 8) == std::vector<float>(x.begin(), x.begin() + 8));
  CHECK(half != interleaved);
  CHECK_THROWS_AS(RotaryEmbedding({8, 7, 10000.0f, RotaryLayout::Half}), bertkit::Error);
  CHECK_THROWS_AS(RotaryEmbedding({8, 10, 10000.0f, RotaryLayout::Half}), bertkit::Error);
  CHECK_THROWS_AS(RotaryEmbedding({8, 8, 0.0f, RotaryLayout::Half}), bertkit::Error);
}
