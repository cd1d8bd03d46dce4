#include "core/tensor.h"

#include "core/error.h"

#include <fmt/ranges.h>

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
