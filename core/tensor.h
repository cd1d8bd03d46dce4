#pragma once
// Tensors as the checkpoint readers hand them out and the encoder consumes them: a dtype, a shape and
// bytes that live elsewhere (a memory map or an owned buffer kept alive by the Weights that hold it).
#include <cstddef>
#include <cstdint>
#include <span>
#include <string>
#include <string_view>
#include <vector>

namespace bertkit::core {

enum class DType : std::uint8_t { F32, F16, BF16, I8, U8, I32, I64, Bool };

std::size_t dtype_size(DType dtype);
std::string_view dtype_name(DType dtype);

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

}  // namespace bertkit::core
