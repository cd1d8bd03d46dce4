#pragma once
// The types a converted file stores its Linear weights in (`--dtype`), and how they are spelled.
#include "core/tensor.h"

#include <string_view>

namespace bertkit::core {

enum class StoreType { F32, F16, BF16, Int8 };

StoreType parse_store_type(std::string_view name);  // "f32", "f16", "bf16", "int8"; Usage error otherwise
std::string_view store_type_name(StoreType type);
DType store_dtype(StoreType type);  // the dtype reduced tensors have: F32, F16, BF16 or I8
std::string_view stored_dtype_name(DType dtype);  // LoadedModel::stored_dtype as `--dtype` spells it; "?" for others

}  // namespace bertkit::core
