#include "core/checkpoint/reduce_weights.h"

#include "core/checkpoint/quantize.h"

#include <cstring>
#include <map>

namespace bertkit::core {
namespace {

template <typename T>
std::vector<std::byte> as_bytes(const std::vector<T>& values) {
  std::vector<std::byte> bytes(values.size() * sizeof(T));
  std::memcpy(bytes.data(), values.data(), bytes.size());
  return bytes;
}

bool is_int8_scale(const Weights& w, const std::string& name) {
  if (!name.ends_with(".scale")) return false;
  const TensorView* base = w.find(std::string_view(name).substr(0, name.size() - 6));
  return base && base->dtype == DType::I8;
}

}  // namespace

bool reducible(const std::string& name, const Shape& shape, DType target) {
  if (shape.size() != 2 || !name.ends_with(".weight")) return false;
  if (name == "embeddings.word_embeddings.weight") return target == DType::BF16;
  return !name.starts_with("embeddings.");
}

Weights with_store_type(const Weights& w, StoreType type) {
  if (type == StoreType::F32) return w.widened_to_f32();
  const DType target = store_dtype(type);
  Weights out;
  std::map<const std::byte*, std::string> first_with;  // tied tensors share their bytes
  for (const auto& name : w.names()) {
    if (is_int8_scale(w, name)) continue;  // goes with its matrix
    const TensorView& t = *w.find(name);
    if (auto it = first_with.find(t.data); it != first_with.end() && t.nbytes > 0) {
      const TensorView& first = *w.find(it->second);
      if (first.shape == t.shape && first.dtype == t.dtype) {
        out.add(name, *out.find(it->second));
        if (const TensorView* scale = out.find(it->second + ".scale")) out.add(name + ".scale", *scale);
        continue;
      }
    }
    first_with.emplace(t.data, name);
    if (!reducible(name, t.shape, target)) {
      out.add_f32(name, t);  // f32 already in every valid file
      continue;
    }
    if (t.dtype == target) {
      out.add(name, t);
      if (target == DType::I8) out.add(name + ".scale", *w.find(name + ".scale"));
      continue;
    }
    std::vector<float> values = w.values_f32(name);
    if (target == DType::I8) {
      const auto rows = static_cast<std::size_t>(t.shape[0]), cols = static_cast<std::size_t>(t.shape[1]);
      Int8Rows q = quantize_int8_rows(values, rows, cols);
      out.add_owned(name, DType::I8, t.shape, as_bytes(q.values));
      out.add_owned(name + ".scale", DType::F32, {t.shape[0]}, as_bytes(q.scales));
    } else {
      out.add_owned(name, target, t.shape, as_bytes(target == DType::BF16 ? to_bf16(values) : to_f16(values)));
    }
  }
  out.keep_owners_of(w);  // after the loop: it may have recovered tensors
  return out;
}

}  // namespace bertkit::core
