#pragma once
// A matmul's f32 input turned, per call, into the type its reduced-precision weights are multiplied
// with: bf16 for bf16 weights, s8 for int8 weights.
#include <cstddef>
#include <cstdint>

namespace bertkit::core {

// Symmetric s8 per row: row r of x [rows, columns] ≈ q_r · scales[r], scales[r] = max|x_r| / 127,
// each value rounded to nearest even, so every row's q and scale depend on that row alone (a token's
// result does not depend on its batch) and one outlier token does not coarsen the others.
void quantize_s8_rows(const float* x, std::size_t rows, std::size_t columns, std::int8_t* q, float* scales);
// One row of it, on this thread.
void quantize_s8_row(const float* x, std::size_t columns, std::int8_t* q, float* scale);

// Rows quantised as quantize_s8_rows quantises them: an int8 layer's input, handed on quantised by the op
// that wrote it (Linear's int8 forms) instead of written in f32 and read again to be quantised.
struct QuantizedRows {
  std::int8_t* values = nullptr;  // [rows, columns]
  float* scales = nullptr;        // [rows]

  // The same rows from row r on, for rows `columns` wide.
  QuantizedRows from_row(std::int64_t r, std::int64_t columns) const { return {values + r * columns, scales + r}; }
  // Row r quantised from x, `columns` wide, on this thread.
  void write_row(std::int64_t r, const float* x, std::int64_t columns) const {
    quantize_s8_row(x, static_cast<std::size_t>(columns), values + r * columns, scales + r);
  }
};

// Rounded to nearest even, as f32_to_bf16 (core/tensor.h) rounds one value.
void round_to_bf16(const float* x, std::size_t n, std::uint16_t* out);

// Rows an op writes in f32 also written in the type the next layer reads them in, by that op while each
// row is in cache: rounded to bf16 and/or quantised as quantize_s8_rows quantises them; null: neither.
struct ReducedCopy {
  std::uint16_t* bf16 = nullptr;  // [rows, columns]
  QuantizedRows s8;               // [rows, columns]

  // The same copy from row r on, for rows `columns` wide.
  ReducedCopy from_row(std::int64_t r, std::int64_t columns) const;
  // Writes row r of the copy from x, `columns` wide, on this thread.
  void write_row(std::int64_t r, const float* x, std::int64_t columns) const;
};

}  // namespace bertkit::core
