// The gated feed-forward (GeGLU, SwiGLU) against a plain double reference: both half orders, every
// activation families use, with and without biases, overwriting and adding to the output. Its matmuls and
// activations are oneDNN's, whose instruction set BERTKIT_CPU sets for the whole process: ctest runs
// this file again with BERTKIT_CPU=portable and avx2 (tests/CMakeLists.txt).
#include "core/checkpoint/quantize.h"
#include "core/ops/gated_ffn.h"
#include "core/tensor.h"
#include "unit/reference_math.h"

#include <doctest/doctest.h>

#include <cmath>
#include <cstring>
#include <vector>

using namespace bertkit::core;

namespace {

double reference_activation(Eltwise activation, double x) {
  switch (activation) {
    case Eltwise::Gelu: return bktest::reference_gelu(x);
    case Eltwise::GeluTanh: return bktest::reference_gelu_tanh(x);
    case Eltwise::Silu: return bktest::reference_silu(x);
    default: return x;
  }
}

struct GatedCase {
  Eltwise activation = Eltwise::Gelu;
  GatedHalves halves = GatedHalves::ActivateFirst;
  bool biases = false;
  LinearOutput output = LinearOutput::Overwrite;
};

// y = W_out · (act(a) · b) + b_out with (a, b) the halves of W_in · x + b_in in the case's order.
std::vector<double> reference_gated(const std::vector<float>& x, const std::vector<float>& w_in,
                                    const std::vector<float>& b_in, const std::vector<float>& w_out,
                                    const std::vector<float>& b_out, std::int64_t rows, std::int64_t h,
                                    std::int64_t i, const GatedCase& c) {
  const auto projected = bktest::reference_linear(x, w_in, b_in, rows, h, 2 * i);
  std::vector<double> exact_product(rows * i);
  const std::int64_t activated = c.halves == GatedHalves::ActivateFirst ? 0 : i, other = i - activated;
  for (std::int64_t r = 0; r < rows; ++r)
    for (std::int64_t j = 0; j < i; ++j)
      exact_product[r * i + j] =
          reference_activation(c.activation, projected[r * 2 * i + activated + j]) * projected[r * 2 * i + other + j];
  // The output projection in double over the double product (reference_linear takes floats).
  std::vector<double> y(rows * h);
  for (std::int64_t r = 0; r < rows; ++r)
    for (std::int64_t o = 0; o < h; ++o) {
      double acc = b_out.empty() ? 0.0 : b_out[o];
      for (std::int64_t j = 0; j < i; ++j) acc += exact_product[r * i + j] * w_out[o * i + j];
      y[r * h + o] = acc;
    }
  return y;
}

std::vector<float> run_gated(const GatedCase& c, std::int64_t rows, std::int64_t h, std::int64_t i,
                             std::vector<double>* expected) {
  const auto x = bktest::random_floats(rows * h, 81, -2.0f, 2.0f);
  const auto w_in = bktest::random_floats(2 * i * h, 82, -0.5f, 0.5f);
  const auto w_out = bktest::random_floats(h * i, 83, -0.5f, 0.5f);
  const auto b_in = c.biases ? bktest::random_floats(2 * i, 84) : std::vector<float>{};
  const auto b_out = c.biases ? bktest::random_floats(h, 85) : std::vector<float>{};
  GatedFeedForward ffn({h, i, c.activation, c.halves, c.output}, {DType::F32, w_in.data(), {}}, b_in,
                       {DType::F32, w_out.data(), {}}, b_out);
  std::vector<float> scratch(ffn.scratch_floats(rows));
  auto y = c.output == LinearOutput::Accumulate ? bktest::random_floats(rows * h, 86) : std::vector<float>(rows * h);
  const auto before = y;
  ffn.forward(x.data(), rows, y.data(), scratch.data());
  if (expected) {
    *expected = reference_gated(x, w_in, b_in, w_out, b_out, rows, h, i, c);
    if (c.output == LinearOutput::Accumulate)
      for (std::size_t k = 0; k < before.size(); ++k) (*expected)[k] += before[k];
  }
  return y;
}

}  // namespace

TEST_CASE("gated feed-forward matches a double reference: GeGLU (erf and tanh) and SwiGLU, both half orders") {
  for (Eltwise activation : {Eltwise::Gelu, Eltwise::GeluTanh, Eltwise::Silu})
    for (GatedHalves halves : {GatedHalves::ActivateFirst, GatedHalves::ActivateSecond})
      for (bool biases : {false, true})
        for (LinearOutput output : {LinearOutput::Overwrite, LinearOutput::Accumulate})
          for (std::int64_t rows : {1, 7, 200}) {
            const GatedCase c{activation, halves, biases, output};
            INFO("activation " << int(activation) << ", activate " << (halves == GatedHalves::ActivateFirst ? "first" : "second")
                               << ", biases " << biases << ", accumulate " << (output == LinearOutput::Accumulate)
                               << ", rows " << rows);
            std::vector<double> expected;
            const auto y = run_gated(c, rows, 24, 40, &expected);
            double worst = 0;
            for (std::size_t k = 0; k < y.size(); ++k) worst = std::max(worst, std::abs(y[k] - expected[k]));
            CHECK(worst < 2e-5);
          }
}

TEST_CASE("gated feed-forward: the half order and the activation each change the result") {
  const auto first = run_gated({Eltwise::Gelu, GatedHalves::ActivateFirst}, 5, 16, 32, nullptr);
  const auto second = run_gated({Eltwise::Gelu, GatedHalves::ActivateSecond}, 5, 16, 32, nullptr);
  const auto tanh = run_gated({Eltwise::GeluTanh, GatedHalves::ActivateFirst}, 5, 16, 32, nullptr);
  double order = 0, approximation = 0;
  for (std::size_t k = 0; k < first.size(); ++k) {
    order = std::max(order, double(std::abs(first[k] - second[k])));
    approximation = std::max(approximation, double(std::abs(first[k] - tanh[k])));
  }
  CHECK(order > 1e-2);
  CHECK(approximation > 1e-6);  // GELU's tanh form differs from erf's by up to ~1e-3 of x
}

TEST_CASE("gated feed-forward: inputs longer than the rows it takes at once, with scratch for those rows only") {
  const std::int64_t rows = 2 * GatedFeedForward::kRowsAtOnce + 5;
  for (LinearOutput output : {LinearOutput::Overwrite, LinearOutput::Accumulate}) {
    INFO("accumulate " << (output == LinearOutput::Accumulate));
    std::vector<double> expected;
    const auto y = run_gated({Eltwise::Silu, GatedHalves::ActivateSecond, true, output}, rows, 8, 12, &expected);
    double worst = 0;
    for (std::size_t k = 0; k < y.size(); ++k) worst = std::max(worst, std::abs(y[k] - expected[k]));
    CHECK(worst < 2e-5);
  }
  const std::vector<float> w_in(2 * 12 * 8), w_out(8 * 12);
  GatedFeedForward ffn({8, 12}, {DType::F32, w_in.data(), {}}, {}, {DType::F32, w_out.data(), {}}, {});
  CHECK(ffn.scratch_floats(rows) == 2 * GatedFeedForward::kRowsAtOnce * 12);
  CHECK(ffn.scratch_floats(3) == 2 * 3 * 12);
}

namespace {

// A layer's input over several chunks of rows, its weights and a norm's, from seeds `seed` on.
struct ChunkedCase {
  std::vector<float> x, w_in, w_out, gamma, beta;
};
ChunkedCase chunked_case(std::int64_t rows, std::int64_t h, std::int64_t i, std::uint32_t seed) {
  return {bktest::random_floats(rows * h, seed, -2.0f, 2.0f), bktest::random_floats(2 * i * h, seed + 1, -0.5f, 0.5f),
          bktest::random_floats(h * i, seed + 2, -0.5f, 0.5f), bktest::random_floats(h, seed + 3, 0.5f, 1.5f),
          bktest::random_floats(h, seed + 4)};
}

}  // namespace

TEST_CASE("gated feed-forward: a norm given is applied to the rows it adds to, over several chunks of rows") {
  const std::int64_t rows = GatedFeedForward::kRowsAtOnce + 9, h = 8, i = 12;
  const auto [x, w_in, w_out, gamma, beta] = chunked_case(rows, h, i, 91);
  GatedFeedForward ffn({h, i, Eltwise::Gelu, GatedHalves::ActivateFirst, LinearOutput::Accumulate},
                       {DType::F32, w_in.data(), {}}, {}, {DType::F32, w_out.data(), {}}, {});
  std::vector<float> scratch(ffn.scratch_floats(rows));
  auto separate = bktest::random_floats(rows * h, 96);
  auto normed = separate;
  std::vector<std::uint16_t> separate_bf16(separate.size()), normed_bf16(separate.size());
  ffn.forward(x.data(), rows, separate.data(), scratch.data());
  layer_norm(separate.data(), separate.data(), rows, h, gamma.data(), beta.data(), 1e-5f);
  bertkit::core::round_to_bf16(separate.data(), separate.size(), separate_bf16.data());
  const LayerNormParams norm{gamma.data(), beta.data(), 1e-5f, {normed_bf16.data(), {}}};
  ffn.forward(x.data(), rows, normed.data(), scratch.data(), &norm);
  CHECK(std::memcmp(separate.data(), normed.data(), separate.size() * sizeof(float)) == 0);
  CHECK(separate_bf16 == normed_bf16);
}

TEST_CASE("gated feed-forward: its input's bf16 or s8 copy is read in place of rounding or quantising it, "
          "in place over chunks of rows, with the norm rewriting that copy") {
  const std::int64_t rows = GatedFeedForward::kRowsAtOnce + 9, h = 16, i = 24;
  const auto [x, w_in, w_out, gamma, beta] = chunked_case(rows, h, i, 101);
  std::vector<std::uint16_t> in_bf16(w_in.size()), out_bf16(w_out.size());
  for (std::size_t j = 0; j < w_in.size(); ++j) in_bf16[j] = f32_to_bf16(w_in[j]);
  for (std::size_t j = 0; j < w_out.size(); ++j) out_bf16[j] = f32_to_bf16(w_out[j]);
  const auto in_s8 = quantize_int8_rows(w_in, 2 * i, h), out_s8 = quantize_int8_rows(w_out, h, i);
  const std::pair<LinearWeight, LinearWeight> types[] = {
      {{DType::BF16, in_bf16.data(), {}}, {DType::BF16, out_bf16.data(), {}}},
      {{DType::I8, in_s8.values.data(), in_s8.scales}, {DType::I8, out_s8.values.data(), out_s8.scales}}};
  for (const auto& [in_weight, out_weight] : types) {
    const DType type = in_weight.dtype;  // clang 14 cannot capture a structured binding in CAPTURE's lambda
    CAPTURE(dtype_name(type));
    GatedFeedForward ffn({h, i, Eltwise::Gelu, GatedHalves::ActivateFirst, LinearOutput::Accumulate}, in_weight, {},
                         out_weight, {});
    std::vector<float> scratch(ffn.scratch_floats(rows));
    // x's copy, as the norm that wrote x would have written it; the norm after the layer rewrites it.
    std::vector<std::uint16_t> want_bf16(x.size()), copy_bf16(x.size());
    std::vector<std::int8_t> want_s8(x.size()), copy_s8(x.size());
    std::vector<float> want_scales(rows), copy_scales(rows);
    round_to_bf16(x.data(), x.size(), copy_bf16.data());
    quantize_s8_rows(x.data(), rows, h, copy_s8.data(), copy_scales.data());
    const ReducedCopy copy{copy_bf16.data(), {copy_s8.data(), copy_scales.data()}};
    auto want = x, got = x;  // y is x: the residual sum in place
    const LayerNormParams want_norm{gamma.data(), beta.data(), 1e-5f, {want_bf16.data(), {want_s8.data(), want_scales.data()}}};
    ffn.forward(want.data(), rows, want.data(), scratch.data(), &want_norm);
    const LayerNormParams norm{gamma.data(), beta.data(), 1e-5f, copy};
    ffn.forward(got.data(), rows, got.data(), scratch.data(), &norm, copy);
    CHECK(std::memcmp(want.data(), got.data(), want.size() * sizeof(float)) == 0);
    CHECK(want_bf16 == copy_bf16);
    CHECK(want_s8 == copy_s8);
    CHECK(want_scales == copy_scales);
    // The copy is what is read (where the layers compute in its type: BERTKIT_CPU may widen them to f32):
    // other rows' copy gives those rows' output.
    if (ffn.activated_layer().computes_in_f32()) continue;
    const auto other = bktest::random_floats(rows * h, 106, -2.0f, 2.0f);
    round_to_bf16(other.data(), other.size(), copy_bf16.data());
    quantize_s8_rows(other.data(), rows, h, copy_s8.data(), copy_scales.data());
    std::vector<float> from_other(x.size()), from_copy(x.size());
    ffn.forward(other.data(), rows, from_other.data(), scratch.data());
    ffn.forward(x.data(), rows, from_copy.data(), scratch.data(), nullptr, copy);
    CHECK(std::memcmp(from_other.data(), from_copy.data(), from_other.size() * sizeof(float)) == 0);
  }
}
