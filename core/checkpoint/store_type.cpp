#include "core/checkpoint/store_type.h"

#include "core/error.h"

#include <algorithm>
#include <iterator>

namespace bertkit::core {
namespace {

struct StoreTypeRow {
  StoreType type;
  std::string_view name;
  DType dtype;
};
constexpr StoreTypeRow kStoreTypes[] = {{StoreType::F32, "f32", DType::F32},
                                        {StoreType::F16, "f16", DType::F16},
                                        {StoreType::BF16, "bf16", DType::BF16},
                                        {StoreType::Int8, "int8", DType::I8}};

const StoreTypeRow& store_type_row(StoreType type) {
  return *std::find_if(std::begin(kStoreTypes), std::end(kStoreTypes), [&](const auto& row) { return row.type == type; });
}

}  // namespace

StoreType parse_store_type(std::string_view name) {
  for (const auto& row : kStoreTypes)
    if (row.name == name) return row.type;
  usage_error("unknown dtype \"{}\" (choose f32, f16, bf16 or int8)", name);
}

std::string_view store_type_name(StoreType type) { return store_type_row(type).name; }

DType store_dtype(StoreType type) { return store_type_row(type).dtype; }

std::string_view stored_dtype_name(DType dtype) {
  for (const auto& row : kStoreTypes)
    if (row.dtype == dtype) return row.name;
  return "?";
}

}  // namespace bertkit::core
