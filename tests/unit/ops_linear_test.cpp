#include "core/checkpoint/quantize.h"
#include "core/dnnl/layout_names.h"
#include "core/ops/cpu_features.h"
#include "core/ops/int8_row_tiles.h"
#include "core/ops/layer_norm.h"
#include "core/ops/linear.h"
#include "core/ops/reduced_activations.h"
#include "unit/reference_math.h"

#include <doctest/doctest.h>

#include <algorithm>
#include <cmath>
#include <cstring>
#include <functional>
#include <vector>

#include <omp.h>

using bertkit::core::Eltwise;
using bertkit::core::Linear;
using bertkit::core::LinearOutput;

namespace {

void check_linear(Eltwise activation, const std::function<double(double)>& reference, bool with_bias) {
  const std::int64_t in = 48, out = 40;
  auto w = bktest::random_floats(in * out, 1);
  auto b = with_bias ? bktest::random_floats(out, 2) : std::vector<float>{};
  Linear linear(w, b, out, in, activation);
  CHECK(linear.in_features() == in);
  CHECK(linear.out_features() == out);
  for (std::int64_t rows : {1, 7, 64, 130}) {
    auto x = bktest::random_floats(rows * in, 3 + rows, -2.0f, 2.0f);
    std::vector<float> y(rows * out);
    linear.forward(x.data(), rows, y.data());
    auto expected = bktest::reference_linear(x, w, b, rows, in, out);
    double worst = 0;
    for (std::size_t i = 0; i < y.size(); ++i) worst = std::max(worst, std::abs(y[i] - reference(expected[i])));
    INFO("rows " << rows);
    CHECK(worst < 2e-5);
  }
}

}  // namespace

TEST_CASE("linear: x·Wᵀ + b with each fused activation matches a double reference") {
  check_linear(Eltwise::Identity, [](double v) { return v; }, true);
  check_linear(Eltwise::Identity, [](double v) { return v; }, false);
  check_linear(Eltwise::Gelu, bktest::reference_gelu, true);
  check_linear(Eltwise::GeluTanh, bktest::reference_gelu_tanh, true);
  check_linear(Eltwise::Relu, [](double v) { return v > 0 ? v : 0.0; }, true);
  check_linear(Eltwise::Silu, bktest::reference_silu, true);
  check_linear(Eltwise::Tanh, [](double v) { return std::tanh(v); }, true);
}

TEST_CASE("linear: the residual form adds into the output") {
  const std::int64_t in = 64, out = 32, rows = 9;
  auto w = bktest::random_floats(in * out, 11);
  auto b = bktest::random_floats(out, 12);
  auto x = bktest::random_floats(rows * in, 13);
  auto residual = bktest::random_floats(rows * out, 14);
  Linear linear(w, b, out, in, Eltwise::Identity, LinearOutput::Accumulate);
  auto y = residual;
  linear.forward(x.data(), rows, y.data());
  auto expected = bktest::reference_linear(x, w, b, rows, in, out);
  for (std::size_t i = 0; i < y.size(); ++i) CHECK(y[i] == doctest::Approx(expected[i] + residual[i]).epsilon(1e-5));
}

TEST_CASE("linear: the same rows give the same outputs whatever the row count") {
  const std::int64_t in = 96, out = 80;
  auto w = bktest::random_floats(in * out, 21);
  Linear linear(w, {}, out, in, Eltwise::Gelu);
  auto x = bktest::random_floats(200 * in, 22);
  std::vector<float> all(200 * out), few(3 * out);
  linear.forward(x.data(), 200, all.data());
  linear.forward(x.data() + 50 * in, 3, few.data());
  for (std::int64_t i = 0; i < 3 * out; ++i) CHECK(std::abs(few[i] - all[50 * out + i]) <= 1e-6f);
}

TEST_CASE("linear: mismatched sizes are refused") {
  auto w = bktest::random_floats(10, 1);
  CHECK_THROWS(Linear(w, {}, 3, 4));
  CHECK_THROWS(Linear(w, std::vector<float>(3), 5, 2));
  CHECK_THROWS(Linear(w, {}, 5, 2, Eltwise::Relu, LinearOutput::Accumulate));
}

// bf16 and int8 layers against a double reference on the values their weights stand for: what is left
// is the rounding of x per call (bf16: 8 bits of mantissa; s8 over each row's range), a relative RMS
// error well under 1%. A weight row of zeros (int8 scale 0) gives exactly the bias.
TEST_CASE("linear: bf16 and int8 weights, with every epilogue, match the reference within their rounding") {
  using bertkit::core::DType;
  const std::int64_t in = 64, out = 48, rows = 37;
  auto w = bktest::random_floats(in * out, 21);
  std::fill(w.begin() + 5 * in, w.begin() + 6 * in, 0.0f);
  auto b = bktest::random_floats(out, 22);
  auto x = bktest::random_floats(rows * in, 23, -2.0f, 2.0f);
  auto residual = bktest::random_floats(rows * out, 24);
  auto int8 = bertkit::core::quantize_int8_rows(w, out, in);
  auto bf16 = bertkit::core::to_bf16(w);
  std::vector<float> int8_values(w.size()), bf16_values(w.size());
  for (std::size_t i = 0; i < w.size(); ++i) {
    int8_values[i] = static_cast<float>(int8.values[i]) * int8.scales[i / in];
    bf16_values[i] = bertkit::core::bf16_to_f32(bf16[i]);
  }
  struct Case {
    bertkit::core::LinearWeight weight;
    const std::vector<float>* values;
    double bound;
  };
  for (const Case& c : {Case{{DType::BF16, bf16.data(), {}}, &bf16_values, 0.005},
                        Case{{DType::I8, int8.values.data(), int8.scales}, &int8_values, 0.01}}) {
    CAPTURE(bertkit::core::dtype_name(c.weight.dtype));
    auto expected = bktest::reference_linear(x, *c.values, b, rows, in, out);
    for (bool accumulate : {false, true}) {
      CAPTURE(accumulate);
      Linear linear(c.weight, b, out, in, accumulate ? Eltwise::Identity : Eltwise::Gelu,
                    accumulate ? LinearOutput::Accumulate : LinearOutput::Overwrite);
      std::vector<float> y = accumulate ? residual : std::vector<float>(rows * out);
      linear.forward(x.data(), rows, y.data());
      double error = 0, norm = 0;
      for (std::size_t i = 0; i < y.size(); ++i) {
        const double want = accumulate ? expected[i] + residual[i] : bktest::reference_gelu(expected[i]);
        error += (y[i] - want) * (y[i] - want);
        norm += want * want;
        if (i % out == 5 && !accumulate) CHECK(y[i] == doctest::Approx(bktest::reference_gelu(b[5])).epsilon(1e-5));
      }
      CHECK(std::sqrt(error / norm) < c.bound);
    }
  }
}

TEST_CASE("linear: weights stored packed rebuild the same layer in place, another layout is refused") {
  using bertkit::core::DType;
  const std::int64_t in = 64, out = 96;
  auto w = bktest::random_floats(in * out, 11);
  auto b = bktest::random_floats(out, 12);
  const auto int8 = bertkit::core::quantize_int8_rows(w, out, in);
  const auto bf16 = bertkit::core::to_bf16(w);
  const auto& cpu = bertkit::core::cpu_selection();
  for (DType type : {DType::F32, DType::BF16, DType::I8}) {
    INFO(bertkit::core::dtype_name(type));
    // A type this CPU does not compute (bf16 without AVX-512, int8 without VNNI) is widened to f32.
    if ((type == DType::BF16 && !bertkit::core::bf16_matmul_supported(cpu)) ||
        (type == DType::I8 && !bertkit::core::int8_matmul_supported(cpu)))
      continue;
    const void* data = type == DType::F32 ? static_cast<const void*>(w.data())
                       : type == DType::BF16 ? static_cast<const void*>(bf16.data()) : int8.values.data();
    const std::span<const float> scales = type == DType::I8 ? std::span<const float>(int8.scales) : std::span<const float>();
    Linear packed_now({type, data, scales}, b, out, in, Eltwise::Gelu);
    auto layout = packed_now.packed_layout();
    REQUIRE(layout.has_value());
    const std::string type_name = type == DType::F32 ? "f32:" : type == DType::BF16 ? "bf16:" : "s8:";
    CHECK(layout->starts_with(type_name));
    auto bytes = packed_now.packed_bytes();
    std::vector<std::byte> stored(bytes.begin(), bytes.end());  // as a converted file holds them

    auto in_place = Linear::from_packed({*layout, stored, scales, {}}, b, out, in, Eltwise::Gelu);
    REQUIRE(in_place.has_value());
    CHECK(in_place->packed_bytes().data() == stored.data());  // used where it lies, not copied
    auto x = bktest::random_floats(5 * in, 13, -2.0f, 2.0f);
    std::vector<float> y1(5 * out), y2(5 * out);
    packed_now.forward(x.data(), 5, y1.data());
    in_place->forward(x.data(), 5, y2.data());
    CHECK(y1 == y2);

    // Unpacked, the weights are exactly the plain ones (an s8 layout's compensation left out).
    const auto desc = bertkit::core::layout_from_name({in, out}, *layout);
    REQUIRE(desc.has_value());
    const auto plain = bertkit::core::unpacked(*desc, stored);
    REQUIRE(plain.size() == static_cast<std::size_t>(in * out) * bertkit::core::dtype_size(type));
    CHECK(std::memcmp(plain.data(), data, plain.size()) == 0);

    // A version 1 file named f32 layouts by their bare tag.
    if (type == DType::F32)
      CHECK(Linear::from_packed({layout->substr(4), stored, {}, {}}, b, out, in, Eltwise::Gelu).has_value());

    // Packed for another machine or by another oneDNN: the caller packs the plain weights instead.
    // (Where this machine's layout is the plain "ab" itself, the transposed one is another.)
    const std::string other = *layout == type_name + "ab" ? type_name + "ba" : type_name + "ab";
    CHECK_FALSE(Linear::from_packed({other, stored, scales, {}}, b, out, in, Eltwise::Gelu).has_value());
    CHECK_FALSE(Linear::from_packed({"no-such-layout", stored, scales, {}}, b, out, in, Eltwise::Gelu).has_value());
    CHECK_FALSE(Linear::from_packed({*layout, std::span(stored).first(stored.size() - 64), scales, {}}, b, out, in, Eltwise::Gelu)
                    .has_value());
    CHECK_FALSE(Linear::from_packed({*layout, stored, scales, {}}, b, out, in + 16, Eltwise::Gelu).has_value());  // another shape
  }
  // Another type under the same tag is another layout.
  Linear f32(w, b, out, in, Eltwise::Gelu);
  const std::string tag = f32.packed_layout()->substr(4);
  CHECK_FALSE(Linear::from_packed({"bf16:" + tag, f32.packed_bytes(), {}, {}}, b, out, in, Eltwise::Gelu).has_value());
}

// int8 quantises x per row: a row's output is bitwise the same computed alone or among rows of a far
// larger range, with every epilogue (bias and activation, residual).
TEST_CASE("linear: an int8 row's output does not depend on the other rows") {
  using bertkit::core::DType;
  const std::int64_t in = 96, out = 80, rows = 150;  // enough work for threads
  auto w = bktest::random_floats(in * out, 41);
  auto b = bktest::random_floats(out, 42);
  auto int8 = bertkit::core::quantize_int8_rows(w, out, in);
  auto x = bktest::random_floats(rows * in, 43, -2.0f, 2.0f);
  for (std::int64_t i = 0; i < in; ++i) x[static_cast<std::size_t>(in + i)] *= 500.0f;  // row 1: an outlier
  auto residual = bktest::random_floats(rows * out, 44);
  for (bool accumulate : {false, true}) {
    CAPTURE(accumulate);
    Linear linear({DType::I8, int8.values.data(), int8.scales}, b, out, in, accumulate ? Eltwise::Identity : Eltwise::Gelu,
                  accumulate ? LinearOutput::Accumulate : LinearOutput::Overwrite);
    std::vector<float> all = residual;
    linear.forward(x.data(), rows, all.data());
    for (std::int64_t r : {0, 2, 149}) {
      CAPTURE(r);
      std::vector<float> one(residual.begin() + r * out, residual.begin() + (r + 1) * out);
      linear.forward(x.data() + r * in, 1, one.data());
      CHECK(std::equal(one.begin(), one.end(), all.begin() + r * out));
    }
  }
}

TEST_CASE("linear: an int8 layer in tiles of rows writes the bytes of the whole layer" * doctest::test_suite("threads")) {
  using bertkit::core::DType;
  const std::int64_t in = 128, out = 96, rows = 1000;  // tiles of 128 rows and a last of 104
  auto w = bktest::random_floats(in * out, 51);
  auto b = bktest::random_floats(out, 52);
  auto int8 = bertkit::core::quantize_int8_rows(w, out, in);
  auto x = bktest::random_floats(rows * in, 53, -2.0f, 2.0f);
  auto residual = bktest::random_floats(rows * out, 54);
  REQUIRE(bertkit::core::int8_row_tiles_pay(rows, 2));
  REQUIRE_FALSE(bertkit::core::int8_row_tiles_pay(rows, 1));
  for (bool accumulate : {false, true}) {
    CAPTURE(accumulate);
    Linear linear({DType::I8, int8.values.data(), int8.scales}, b, out, in, accumulate ? Eltwise::Identity : Eltwise::Gelu,
                  accumulate ? LinearOutput::Accumulate : LinearOutput::Overwrite);
    std::vector<float> tiled = residual, whole = residual;
    const int threads = omp_get_max_threads();
    omp_set_num_threads(2);
    linear.forward(x.data(), rows, tiled.data());
    omp_set_num_threads(1);  // one thread: the whole layer, as small inputs run
    linear.forward(x.data(), rows, whole.data());
    omp_set_num_threads(threads);
    CHECK(std::memcmp(tiled.data(), whole.data(), tiled.size() * sizeof(float)) == 0);
  }
}

TEST_CASE("linear: a bf16 layer takes its input rounded already and hands its output on rounded") {
  using bertkit::core::DType;
  if (!bertkit::core::bf16_matmul_supported(bertkit::core::cpu_selection())) return;  // computed in f32 here
  const std::int64_t in = 64, out = 96, rows = 70;
  auto w = bktest::random_floats(in * out, 61);
  auto b = bktest::random_floats(out, 62);
  auto bf16 = bertkit::core::to_bf16(w);
  auto x = bktest::random_floats(rows * in, 63, -2.0f, 2.0f);
  std::vector<std::uint16_t> x_bf16(x.size());
  bertkit::core::round_to_bf16(x.data(), x.size(), x_bf16.data());
  Linear linear({DType::BF16, bf16.data(), {}}, b, out, in, Eltwise::Gelu);
  REQUIRE(linear.reads_bf16());
  std::vector<float> from_f32(rows * out), from_bf16(rows * out);
  linear.forward(x.data(), rows, from_f32.data());
  linear.forward(x_bf16.data(), rows, from_bf16.data());
  CHECK(std::memcmp(from_f32.data(), from_bf16.data(), from_f32.size() * sizeof(float)) == 0);
  std::vector<std::uint16_t> rounded(from_f32.size()), written(from_f32.size()), written_from_bf16(from_f32.size());
  bertkit::core::round_to_bf16(from_f32.data(), from_f32.size(), rounded.data());
  linear.forward(x.data(), rows, written.data());
  linear.forward(x_bf16.data(), rows, written_from_bf16.data());
  CHECK(written == rounded);
  CHECK(written_from_bf16 == rounded);
  Linear f32_layer(w, b, out, in);
  CHECK_FALSE(f32_layer.reads_bf16());
  CHECK_THROWS(f32_layer.forward(x_bf16.data(), rows, from_f32.data()));
}

TEST_CASE("linear: a multiplied output is the plain output times the multiplier, byte for byte, in every type and path" *
          doctest::test_suite("threads")) {
  using bertkit::core::DType;
  const std::int64_t in = 64, out = 80;
  auto w = bktest::random_floats(in * out, 71);
  auto b = bktest::random_floats(out, 72);
  auto int8 = bertkit::core::quantize_int8_rows(w, out, in);
  auto bf16 = bertkit::core::to_bf16(w);
  const int threads = omp_get_max_threads();
  // 300 rows on 2 threads: int8 in tiles of rows; 7 rows: every type's whole layer.
  for (std::int64_t rows : {7, 300}) {
    auto x = bktest::random_floats(rows * in, 73, -2.0f, 2.0f);
    auto m = bktest::random_floats(rows * out, 74, -3.0f, 3.0f);
    for (const bertkit::core::LinearWeight& weight : {bertkit::core::LinearWeight{DType::F32, w.data(), {}},
                                                      bertkit::core::LinearWeight{DType::BF16, bf16.data(), {}},
                                                      bertkit::core::LinearWeight{DType::I8, int8.values.data(), int8.scales}}) {
      CAPTURE(rows);
      CAPTURE(bertkit::core::dtype_name(weight.dtype));
      Linear linear(weight, b, out, in);
      omp_set_num_threads(2);
      std::vector<float> plain(rows * out), multiplied(rows * out);
      linear.forward(x.data(), rows, plain.data());
      for (std::size_t i = 0; i < plain.size(); ++i) plain[i] *= m[i];
      linear.forward_multiplied(x.data(), rows, m.data(), multiplied.data());
      CHECK(std::memcmp(plain.data(), multiplied.data(), plain.size() * sizeof(float)) == 0);
      if (linear.reads_bf16()) {  // bf16 in and out: the product rounded as round_to_bf16 rounds it
        std::vector<std::uint16_t> x_bf16(x.size()), rounded(plain.size()), written(plain.size());
        bertkit::core::round_to_bf16(x.data(), x.size(), x_bf16.data());
        bertkit::core::round_to_bf16(plain.data(), plain.size(), rounded.data());
        linear.forward_multiplied(x_bf16.data(), rows, m.data(), written.data());
        CHECK(written == rounded);
      }
      omp_set_num_threads(threads);
    }
  }
  Linear activated(w, b, out, in, Eltwise::Gelu);
  std::vector<float> x(in), m(out), y(out);
  CHECK_THROWS(activated.forward_multiplied(x.data(), 1, m.data(), y.data()));
}

TEST_CASE("linear: a normalised residual layer writes the bytes of the layer and then its LayerNorm, in every type and path" *
          doctest::test_suite("threads")) {
  using bertkit::core::DType;
  const std::int64_t in = 64, out = 80;
  auto w = bktest::random_floats(in * out, 75);
  auto b = bktest::random_floats(out, 76);
  auto gamma = bktest::random_floats(out, 77, 0.5f, 1.5f);
  auto beta = bktest::random_floats(out, 78);
  auto int8 = bertkit::core::quantize_int8_rows(w, out, in);
  auto bf16 = bertkit::core::to_bf16(w);
  const int threads = omp_get_max_threads();
  for (std::int64_t rows : {7, 300}) {  // int8: the whole layer, then tiles of rows (on 2 threads)
    auto x = bktest::random_floats(rows * in, 79, -2.0f, 2.0f);
    auto residual = bktest::random_floats(rows * out, 80);
    for (const bertkit::core::LinearWeight& weight : {bertkit::core::LinearWeight{DType::F32, w.data(), {}},
                                                      bertkit::core::LinearWeight{DType::BF16, bf16.data(), {}},
                                                      bertkit::core::LinearWeight{DType::I8, int8.values.data(), int8.scales}}) {
      for (bool with_beta : {true, false}) {
        CAPTURE(rows);
        CAPTURE(bertkit::core::dtype_name(weight.dtype));
        CAPTURE(with_beta);
        Linear linear(weight, b, out, in, Eltwise::Identity, LinearOutput::Accumulate);
        omp_set_num_threads(2);
        std::vector<float> separate = residual, normed = residual;
        // The normalised rows' copies for the next layer: as rounding and quantising them afterwards.
        std::vector<std::uint16_t> separate_bf16(separate.size()), normed_bf16(separate.size());
        std::vector<std::int8_t> separate_s8(separate.size()), normed_s8(separate.size());
        std::vector<float> separate_scales(rows), normed_scales(rows);
        linear.forward(x.data(), rows, separate.data());
        bertkit::core::layer_norm(separate.data(), separate.data(), rows, out, gamma.data(), with_beta ? beta.data() : nullptr,
                                  1e-5f);
        bertkit::core::round_to_bf16(separate.data(), separate.size(), separate_bf16.data());
        bertkit::core::quantize_s8_rows(separate.data(), rows, out, separate_s8.data(), separate_scales.data());
        const bertkit::core::LayerNormParams norm{gamma.data(), with_beta ? beta.data() : nullptr, 1e-5f,
                                                  {normed_bf16.data(), {normed_s8.data(), normed_scales.data()}}};
        linear.forward_normed(x.data(), rows, normed.data(), norm);
        omp_set_num_threads(threads);
        CHECK(std::memcmp(separate.data(), normed.data(), separate.size() * sizeof(float)) == 0);
        CHECK(separate_bf16 == normed_bf16);
        CHECK(separate_s8 == normed_s8);
        CHECK(separate_scales == normed_scales);
      }
    }
  }
  Linear overwriting(w, b, out, in);
  std::vector<float> x(in), y(out);
  CHECK_THROWS(overwriting.forward_normed(x.data(), 1, y.data(), {gamma.data(), beta.data(), 1e-5f, {}}));
}

TEST_CASE("linear: int8 layers hand on quantised rows: the bytes of writing f32 and quantising it, of quantising x" *
          doctest::test_suite("threads")) {
  using bertkit::core::DType;
  using bertkit::core::QuantizedRows;
  if (!bertkit::core::int8_matmul_supported(bertkit::core::cpu_selection())) return;  // computed in f32 here
  const std::int64_t in = 64, out = 80;
  auto w = bktest::random_floats(in * out, 81);
  auto b = bktest::random_floats(out, 82);
  auto gamma = bktest::random_floats(out, 83, 0.5f, 1.5f);
  auto int8 = bertkit::core::quantize_int8_rows(w, out, in);
  const bertkit::core::LinearWeight weight{DType::I8, int8.values.data(), int8.scales};
  const int threads = omp_get_max_threads();
  for (std::int64_t rows : {7, 300}) {  // the whole layer, then tiles of rows (on 2 threads)
    CAPTURE(rows);
    omp_set_num_threads(2);
    auto x = bktest::random_floats(rows * in, 84, -2.0f, 2.0f);
    auto m = bktest::random_floats(rows * out, 85, -3.0f, 3.0f);
    // Writing quantised: an activated layer, and a multiplied one.
    Linear activated(weight, b, out, in, Eltwise::Gelu), plain(weight, b, out, in);
    REQUIRE(activated.reads_s8());
    for (bool multiplied : {false, true}) {
      CAPTURE(multiplied);
      std::vector<float> y(rows * out), want_scales(rows), scales(rows);
      std::vector<std::int8_t> want(rows * out), values(rows * out);
      if (multiplied) {
        plain.forward_multiplied(x.data(), rows, m.data(), y.data());
        plain.forward_multiplied(x.data(), rows, m.data(), QuantizedRows{values.data(), scales.data()});
      } else {
        activated.forward(x.data(), rows, y.data());
        activated.forward(x.data(), rows, QuantizedRows{values.data(), scales.data()});
      }
      bertkit::core::quantize_s8_rows(y.data(), rows, out, want.data(), want_scales.data());
      CHECK(values == want);
      CHECK(scales == want_scales);
    }
    // Reading quantised: x quantised as the layer quantises it gives the layer's bytes, normed or not.
    std::vector<std::int8_t> q(rows * in);
    std::vector<float> q_scales(rows);
    bertkit::core::quantize_s8_rows(x.data(), rows, in, q.data(), q_scales.data());
    const QuantizedRows x_q{q.data(), q_scales.data()};
    Linear residual(weight, b, out, in, Eltwise::Identity, LinearOutput::Accumulate);
    const bertkit::core::LayerNormParams norm{gamma.data(), nullptr, 1e-5f, {}};
    auto from_f32 = bktest::random_floats(rows * out, 86), from_q = from_f32;
    residual.forward(x.data(), rows, from_f32.data());
    residual.forward(x_q, rows, from_q.data());
    CHECK(std::memcmp(from_f32.data(), from_q.data(), from_f32.size() * sizeof(float)) == 0);
    residual.forward_normed(x.data(), rows, from_f32.data(), norm);
    residual.forward_normed(x_q, rows, from_q.data(), norm);
    CHECK(std::memcmp(from_f32.data(), from_q.data(), from_f32.size() * sizeof(float)) == 0);
    // Quantised in and out: the activated layer from x, its output quantised afterwards.
    std::vector<float> activated_y(rows * out), want_scales(rows), scales(rows);
    std::vector<std::int8_t> want(rows * out), values(rows * out);
    activated.forward(x.data(), rows, activated_y.data());
    bertkit::core::quantize_s8_rows(activated_y.data(), rows, out, want.data(), want_scales.data());
    activated.forward(x_q, rows, QuantizedRows{values.data(), scales.data()});
    CHECK(values == want);
    CHECK(scales == want_scales);
    omp_set_num_threads(threads);
  }
  Linear f32_layer(w, b, out, in);
  std::vector<std::int8_t> q(in);
  float scale = 0;
  std::vector<float> x(in), y(out);
  CHECK_THROWS(f32_layer.forward(x.data(), 1, QuantizedRows{q.data(), &scale}));
}

TEST_CASE("linear: a reduced copy of x given with it is read where the layer computes in its type, x elsewhere") {
  using bertkit::core::DType;
  const std::int64_t in = 48, out = 40, rows = 5;
  auto w = bktest::random_floats(in * out, 111);
  auto b = bktest::random_floats(out, 112);
  std::vector<std::uint16_t> bf16(w.size());
  for (std::size_t j = 0; j < w.size(); ++j) bf16[j] = bertkit::core::f32_to_bf16(w[j]);
  auto int8 = bertkit::core::quantize_int8_rows(w, out, in);
  const auto x = bktest::random_floats(rows * in, 113), other = bktest::random_floats(rows * in, 114);
  // other's rows in both reduced types: a layer that reads one of them gives other's output from it.
  std::vector<std::uint16_t> other_bf16(other.size());
  std::vector<std::int8_t> other_s8(other.size());
  std::vector<float> other_scales(rows);
  bertkit::core::round_to_bf16(other.data(), other.size(), other_bf16.data());
  bertkit::core::quantize_s8_rows(other.data(), rows, in, other_s8.data(), other_scales.data());
  const bertkit::core::ReducedCopy copy{other_bf16.data(), {other_s8.data(), other_scales.data()}};
  for (const bertkit::core::LinearWeight& weight : {bertkit::core::LinearWeight{DType::F32, w.data(), {}},
                                                    bertkit::core::LinearWeight{DType::BF16, bf16.data(), {}},
                                                    bertkit::core::LinearWeight{DType::I8, int8.values.data(), int8.scales}}) {
    CAPTURE(bertkit::core::dtype_name(weight.dtype));
    Linear linear(weight, b, out, in, Eltwise::Gelu);
    std::vector<float> want(rows * out), got(rows * out);
    linear.forward(linear.computes_in_f32() ? x.data() : other.data(), rows, want.data());
    linear.forward(x.data(), copy, rows, got.data());
    CHECK(std::memcmp(want.data(), got.data(), want.size() * sizeof(float)) == 0);
    linear.forward(x.data(), bertkit::core::ReducedCopy{}, rows, got.data());  // no copy: x
    linear.forward(x.data(), rows, want.data());
    CHECK(std::memcmp(want.data(), got.data(), want.size() * sizeof(float)) == 0);
  }
}
