#include "core/model/linear_weights.h"

#include "core/error.h"

#include <algorithm>
#include <cstring>

namespace bertkit::core {

LinearWeight linear_weight(const Weights& weights, const std::string& name, std::int64_t out, std::int64_t in) {
  const TensorView& t = weights.require(name, {out, in});
  LinearWeight w{t.dtype, t.data, {}};
  if (t.dtype == DType::I8) w.scales = weights.require(name + ".scale", {out}).f32();
  else if (t.dtype != DType::F32 && t.dtype != DType::F16 && t.dtype != DType::BF16)
    bad_input("tensor {} is {}, not a floating-point or int8 weight", name, dtype_name(t.dtype));
  return w;
}

std::span<const float> linear_bias(const Weights& weights, const LinearDecl& decl) {
  if (!decl.has_bias) return {};
  return weights.require(decl.bias(), {decl.out}).f32();
}

Linear linear_layer(const Weights& weights, const LinearDecl& decl, Eltwise activation, LinearOutput output) {
  return Linear(linear_weight(weights, decl.weight(), decl.out, decl.in), linear_bias(weights, decl), decl.out, decl.in,
                activation, output);
}

StackedWeight::StackedWeight(const Weights& weights, std::span<const std::string> names, std::int64_t rows_each,
                             std::int64_t in) {
  std::vector<LinearWeight> parts;
  for (const auto& name : names) parts.push_back(linear_weight(weights, name, rows_each, in));
  const bool same = std::all_of(parts.begin(), parts.end(), [&](const LinearWeight& p) { return p.dtype == parts[0].dtype; });
  const DType type = same ? parts[0].dtype : DType::F32;
  const auto part_bytes = static_cast<std::size_t>(rows_each * in) * dtype_size(type);
  bytes_.resize(part_bytes * parts.size());
  for (std::size_t i = 0; i < parts.size(); ++i) {
    std::byte* at = bytes_.data() + i * part_bytes;
    if (same) {
      std::memcpy(at, parts[i].data, part_bytes);
      scales_.insert(scales_.end(), parts[i].scales.begin(), parts[i].scales.end());
    } else {
      auto values = weights.values_f32(names[i]);
      std::memcpy(at, values.data(), part_bytes);
    }
  }
  view_ = {type, bytes_.data(), scales_};
}

}  // namespace bertkit::core
