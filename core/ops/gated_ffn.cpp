#include "core/ops/gated_ffn.h"

#include "core/error.h"
#include "core/ops/op_profile.h"
#include "core/ops/reduced_activations.h"
#include "core/tensor.h"

#include <algorithm>
#include <tuple>
#include <utility>

namespace bertkit::core {
namespace {

// Rows first .. first+rows of a [*, in] weight (int8: with their scales).
LinearWeight weight_rows(const LinearWeight& weight, std::int64_t first, std::int64_t rows, std::int64_t in) {
  LinearWeight part = weight;
  part.data = static_cast<const std::byte*>(weight.data) + first * in * static_cast<std::int64_t>(dtype_size(weight.dtype));
  if (!weight.scales.empty()) part.scales = weight.scales.subspan(static_cast<std::size_t>(first), static_cast<std::size_t>(rows));
  return part;
}

// s8 rows [rows, columns] kept in a float buffer: the values, then their scales at the next float.
std::int64_t quantized_floats(std::int64_t rows, std::int64_t columns) { return (rows * columns + 3) / 4 + rows; }
QuantizedRows quantized_rows_at(float* buffer, std::int64_t rows, std::int64_t columns) {
  return {reinterpret_cast<std::int8_t*>(buffer), buffer + (rows * columns + 3) / 4};
}

std::span<const float> bias_rows(std::span<const float> bias, std::int64_t first, std::int64_t rows) {
  if (bias.empty()) return bias;
  return bias.subspan(static_cast<std::size_t>(first), static_cast<std::size_t>(rows));
}

}  // namespace

std::pair<Linear, Linear> GatedFeedForward::input_halves(const GatedFeedForwardSpec& spec, const LinearWeight& in_weight,
                                                         std::span<const float> in_bias) {
  const std::int64_t i = spec.intermediate, h = spec.hidden;
  if (!in_bias.empty() && static_cast<std::int64_t>(in_bias.size()) != 2 * i)
    runtime_error("gated feed-forward with {} input-projection outputs given {} biases", 2 * i, in_bias.size());
  if (!in_weight.scales.empty() && static_cast<std::int64_t>(in_weight.scales.size()) != 2 * i)
    runtime_error("int8 gated feed-forward with {} outputs given {} scales", 2 * i, in_weight.scales.size());
  const std::int64_t activated = spec.halves == GatedHalves::ActivateFirst ? 0 : i, other = i - activated;
  return {Linear(weight_rows(in_weight, activated, i, h), bias_rows(in_bias, activated, i), i, h, spec.activation),
          Linear(weight_rows(in_weight, other, i, h), bias_rows(in_bias, other, i), i, h)};
}

GatedFeedForward::GatedFeedForward(const GatedFeedForwardSpec& spec, const LinearWeight& in_weight,
                                   std::span<const float> in_bias, const LinearWeight& out_weight,
                                   std::span<const float> out_bias)
    : intermediate_(spec.intermediate) {
  std::tie(activated_, other_) = input_halves(spec, in_weight, in_bias);
  out_ = Linear(out_weight, out_bias, spec.hidden, spec.intermediate, Eltwise::Identity, spec.output);
}

GatedFeedForward::GatedFeedForward(Linear activated, Linear other, Linear out)
    : intermediate_(activated.out_features()), activated_(std::move(activated)), other_(std::move(other)), out_(std::move(out)) {
  if (other_.out_features() != intermediate_ || out_.in_features() != intermediate_ ||
      other_.in_features() != activated_.in_features() || out_.out_features() != activated_.in_features())
    runtime_error("gated feed-forward layers of mismatched shapes: [{}, {}], [{}, {}], [{}, {}]", activated_.out_features(),
                  activated_.in_features(), other_.out_features(), other_.in_features(), out_.out_features(),
                  out_.in_features());
}

std::int64_t GatedFeedForward::scratch_floats(std::int64_t rows) const {
  const std::int64_t m = std::min(rows, kRowsAtOnce), hidden = out_.out_features();
  // The input rounded to bf16 or quantised to s8 (with its row scales) once for both halves.
  const std::int64_t reduced_input = computes_bf16() ? (m * hidden + 1) / 2 : computes_s8() ? quantized_floats(m, hidden) : 0;
  return 2 * m * intermediate_ + reduced_input;
}

void GatedFeedForward::forward(const float* x, std::int64_t rows, float* y, float* scratch, const LayerNormParams* norm,
                               const ReducedCopy& x_copy) const {
  const std::int64_t hidden = out_.out_features();
  for (std::int64_t r0 = 0; r0 < rows; r0 += kRowsAtOnce) {
    const std::int64_t m = std::min(kRowsAtOnce, rows - r0);
    float* activated = scratch;                    // [m, I]: act(a)
    // [m, I]: act(a) · b, in bf16 or quantised to s8 (its scales after it) where the layers compute in them
    float* product = scratch + m * intermediate_;
    float* reduced_input = scratch + 2 * m * intermediate_;  // [m, hidden] in bf16 or s8
    const float* chunk = x + r0 * hidden;
    const ReducedCopy chunk_copy = x_copy.from_row(r0, hidden);
    // The output projection of rows r0 .. r0 + m, normalised with those rows of the norm's copy.
    const auto project = [&](const auto& in, std::int64_t rows_now, std::int64_t first) {
      if (!norm) return out_.forward(in, rows_now, y + first * hidden);
      out_.forward_normed(in, rows_now, y + first * hidden, norm->from_row(first, hidden));
    };
    if (computes_bf16()) {
      const std::uint16_t* rounded = chunk_copy.bf16;
      if (!rounded) {
        auto* own = reinterpret_cast<std::uint16_t*>(reduced_input);
        ProfiledOp op("round inputs to bf16");
        round_to_bf16(chunk, static_cast<std::size_t>(m * hidden), own);
        rounded = own;
      }
      auto* product_bf16 = reinterpret_cast<std::uint16_t*>(product);
      activated_.forward(rounded, m, activated);
      other_.forward_multiplied(rounded, m, activated, product_bf16);
      project(product_bf16, m, r0);
    } else if (computes_s8()) {
      QuantizedRows quantised = chunk_copy.s8;
      if (!quantised.values) {
        quantised = quantized_rows_at(reduced_input, m, hidden);
        ProfiledOp op("quantise inputs to int8");
        quantize_s8_rows(chunk, static_cast<std::size_t>(m), static_cast<std::size_t>(hidden), quantised.values,
                         quantised.scales);
      }
      const QuantizedRows product_s8 = quantized_rows_at(product, m, intermediate_);
      activated_.forward(quantised, m, activated);
      other_.forward_multiplied(quantised, m, activated, product_s8);
      project(product_s8, m, r0);
    } else {
      activated_.forward(chunk, m, activated);
      other_.forward_multiplied(chunk, m, activated, product);
      project(product, m, r0);
    }
  }
}

}  // namespace bertkit::core
