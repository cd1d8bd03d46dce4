#pragma once
// Reduced-precision copies of weight matrices for converted files.
#include <cstdint>
#include <span>
#include <vector>

namespace bertkit::core {

struct Int8Rows {
  std::vector<std::int8_t> values;  // [rows, cols], value = values[r, c] * scales[r]
  std::vector<float> scales;        // [rows]
};

// Symmetric per-row (= per output channel of a Linear [out, in]) int8: scale = max|row| / 127,
// values rounded to nearest (ties to even); an all-zero row has scale 0.
Int8Rows quantize_int8_rows(std::span<const float> matrix, std::size_t rows, std::size_t cols);

std::vector<std::uint16_t> to_f16(std::span<const float> values);
std::vector<std::uint16_t> to_bf16(std::span<const float> values);

}  // namespace bertkit::core
