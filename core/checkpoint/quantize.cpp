#include "core/checkpoint/quantize.h"

#include "core/tensor.h"

#include <algorithm>
#include <cmath>

namespace bertkit::core {

Int8Rows quantize_int8_rows(std::span<const float> matrix, std::size_t rows, std::size_t cols) {
  Int8Rows out;
  out.values.resize(rows * cols);
  out.scales.resize(rows);
  for (std::size_t r = 0; r < rows; ++r) {
    auto row = matrix.subspan(r * cols, cols);
    float max_abs = 0;
    for (float v : row) max_abs = std::max(max_abs, std::fabs(v));
    float scale = max_abs / 127.0f;
    out.scales[r] = scale;
    if (scale == 0) continue;  // values stay 0
    for (std::size_t c = 0; c < cols; ++c) {
      float q = std::nearbyint(row[c] / scale);
      out.values[r * cols + c] = static_cast<std::int8_t>(std::clamp(q, -127.0f, 127.0f));
    }
  }
  return out;
}

std::vector<std::uint16_t> to_f16(std::span<const float> values) {
  std::vector<std::uint16_t> out(values.size());
  std::transform(values.begin(), values.end(), out.begin(), f32_to_f16);
  return out;
}

std::vector<std::uint16_t> to_bf16(std::span<const float> values) {
  std::vector<std::uint16_t> out(values.size());
  std::transform(values.begin(), values.end(), out.begin(), f32_to_bf16);
  return out;
}

}  // namespace bertkit::core
