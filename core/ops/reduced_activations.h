#pragma once
// A matmul's f32 input turned, per call, into the type its reduced-precision weights are multiplied
// with: bf16 for bf16 weights, u8 for int8 weights.
#include <cstddef>
#include <cstdint>

namespace bertkit::core {

// x ≈ (q - zero_point) · scale for every element.
struct U8Quantization {
  float scale = 1;
  std::int32_t zero_point = 0;
};

// Asymmetric u8 over the whole tensor (one scale for every row: oneDNN 2.6's fast int8 kernels take
// one source zero point and per-column output scales only). The range always includes 0, so 0 is exact.
U8Quantization quantize_u8(const float* x, std::size_t n, std::uint8_t* q);

// Rounded to nearest even, as f32_to_bf16 (core/tensor.h) rounds one value.
void round_to_bf16(const float* x, std::size_t n, std::uint16_t* out);

}  // namespace bertkit::core
