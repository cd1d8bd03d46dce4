#include "core/tensor.h"

#include "core/error.h"

#include <fmt/ranges.h>

#include <bit>
#include <cstring>

namespace bertkit::core {

std::size_t dtype_size(DType dtype) {
  switch (dtype) {
    case DType::F32: case DType::I32: return 4;
    case DType::F16: case DType::BF16: return 2;
    case DType::I8: case DType::U8: case DType::Bool: return 1;
    case DType::I64: return 8;
  }
  return 0;
}

std::string_view dtype_name(DType dtype) {
  switch (dtype) {
    case DType::F32: return "F32";
    case DType::F16: return "F16";
    case DType::BF16: return "BF16";
    case DType::I8: return "I8";
    case DType::U8: return "U8";
    case DType::I32: return "I32";
    case DType::I64: return "I64";
    case DType::Bool: return "BOOL";
  }
  return "?";
}

bool is_float(DType dtype) { return dtype == DType::F32 || dtype == DType::F16 || dtype == DType::BF16; }

float f16_to_f32(std::uint16_t h) {
  std::uint32_t sign = std::uint32_t{h & 0x8000u} << 16;
  std::uint32_t exponent = (h >> 10) & 0x1fu;
  std::uint32_t mantissa = h & 0x3ffu;
  if (exponent == 0) {  // zero or subnormal: mantissa * 2^-24, exact in float
    float magnitude = static_cast<float>(mantissa) * 0x1p-24f;
    return std::bit_cast<float>(sign | std::bit_cast<std::uint32_t>(magnitude));
  }
  if (exponent == 0x1f) return std::bit_cast<float>(sign | 0x7f800000u | (mantissa << 13));  // inf, nan
  return std::bit_cast<float>(sign | ((exponent + 112) << 23) | (mantissa << 13));
}

// After F. Giesen's float_to_half_fast3_rtne (public domain).
std::uint16_t f32_to_f16(float value) {
  std::uint32_t f = std::bit_cast<std::uint32_t>(value);
  auto sign = static_cast<std::uint16_t>((f >> 16) & 0x8000u);
  f &= 0x7fffffffu;
  if (f >= 0x47800000u)  // 65536 and above (and inf, nan): inf or quiet nan
    return static_cast<std::uint16_t>(sign | (f > 0x7f800000u ? 0x7e00u : 0x7c00u));
  if (f < 0x38800000u) {  // subnormal half or zero: adding 0.5 aligns the bits and rounds them
    constexpr std::uint32_t magic = 0x3f000000u;
    float r = std::bit_cast<float>(f) + std::bit_cast<float>(magic);
    return static_cast<std::uint16_t>(sign | (std::bit_cast<std::uint32_t>(r) - magic));
  }
  std::uint32_t odd = (f >> 13) & 1u;
  f += 0xc8000fffu + odd;  // rebias the exponent by -112 and round to nearest even
  return static_cast<std::uint16_t>(sign | (f >> 13));
}

std::uint16_t f32_to_bf16(float value) {
  std::uint32_t f = std::bit_cast<std::uint32_t>(value);
  if ((f & 0x7fffffffu) > 0x7f800000u) return static_cast<std::uint16_t>((f >> 16) | 0x40u);  // quiet nan
  f += 0x7fffu + ((f >> 16) & 1u);
  return static_cast<std::uint16_t>(f >> 16);
}

std::vector<float> to_f32(const TensorView& view) {
  std::size_t n = view.nbytes / dtype_size(view.dtype);
  std::vector<float> out(n);
  switch (view.dtype) {
    case DType::F32:
      std::memcpy(out.data(), view.data, n * sizeof(float));
      return out;
    case DType::F16:
    case DType::BF16: {
      auto convert = view.dtype == DType::F16 ? f16_to_f32 : bf16_to_f32;
      for (std::size_t i = 0; i < n; ++i) {
        std::uint16_t bits;
        std::memcpy(&bits, view.data + 2 * i, 2);
        out[i] = convert(bits);
      }
      return out;
    }
    default:
      bad_input("tensor of dtype {} is not floating point", dtype_name(view.dtype));
  }
}

std::int64_t shape_numel(const Shape& shape) {
  std::int64_t n = 1;
  for (auto d : shape) n *= d;
  return n;
}

std::string shape_string(const Shape& shape) { return fmt::format("[{}]", fmt::join(shape, ", ")); }

std::span<const float> TensorView::f32() const {
  if (dtype != DType::F32) runtime_error("tensor of dtype {} used as F32", dtype_name(dtype));
  return {reinterpret_cast<const float*>(data), nbytes / sizeof(float)};
}

}  // namespace bertkit::core
