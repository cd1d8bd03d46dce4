#pragma once
// Tensors as the checkpoint readers hand them out and the encoder consumes them: a dtype, a shape and
// bytes that live elsewhere (a memory map or an owned buffer kept alive by the Weights that hold it).
#include <bit>
#include <cstddef>
#include <cstdint>
#include <span>
#include <string>
#include <string_view>
#include <vector>

namespace bertkit::core {

enum class DType : std::uint8_t { F32, F16, BF16, I8, U8, I32, I64, Bool };

std::size_t dtype_size(DType dtype);
std::string_view dtype_name(DType dtype);  // safetensors spelling: "F32", "BF16", ...
bool is_float(DType dtype);                // F32, F16, BF16

// IEEE half and bfloat16 <-> float, round to nearest even (what torch's .half() / .bfloat16() do).
float f16_to_f32(std::uint16_t bits);
inline float bf16_to_f32(std::uint16_t bits) { return std::bit_cast<float>(std::uint32_t{bits} << 16); }
std::uint16_t f32_to_f16(float value);
std::uint16_t f32_to_bf16(float value);

using Shape = std::vector<std::int64_t>;

std::int64_t shape_numel(const Shape& shape);
std::string shape_string(const Shape& shape);  // "[768, 3072]"

struct TensorView {
  DType dtype = DType::F32;
  Shape shape;
  const std::byte* data = nullptr;
  std::size_t nbytes = 0;

  std::int64_t numel() const { return shape_numel(shape); }
  // Only valid for F32 tensors; the encoder sees every weight as f32 unless it asked for a reduced type.
  std::span<const float> f32() const;
};

// The values of an F32, F16 or BF16 tensor as f32 (a copy); BadInput for other dtypes.
std::vector<float> to_f32(const TensorView& view);

}  // namespace bertkit::core
