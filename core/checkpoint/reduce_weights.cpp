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
  // Tables read a row at a time: bf16 rows widen as they are read, int8 ones could not (DeBERTa's
  // relative embeddings are normalised as rows before their projections).
  if (name == "embeddings.word_embeddings.weight" || name == "encoder.rel_embeddings.weight")
    return target == DType::BF16;
  // MPNet's relative position bias is a small table of biases, read as f32, not a matrix.
  if (name == "encoder.relative_attention_bias.weight") return false;
  return !name.starts_with("embeddings.");
}

Weights with_store_type(const Weights& w, StoreType type) {
  Weights out;
  TiedTensors tied;
  for (const auto& name : w.names()) {
    if (is_int8_scale(w, name)) continue;  // goes with its matrix
    const TensorView& t = *w.find(name);
    if (auto first = tied.first_with(name, t)) {
      out.add(name, *out.find(*first));
      if (const TensorView* scale = out.find(*first + ".scale")) out.add(name + ".scale", *scale);
      continue;
    }
    const DType target = type != StoreType::F32 && reducible(name, t.shape, store_dtype(type)) ? store_dtype(type) : DType::F32;
    if (target == DType::F32 && t.dtype != DType::I8) {
      out.add_f32(name, t);  // shared when it is f32 already
      continue;
    }
    if (t.dtype == target) {  // as it is: re-deriving int8 from its own values could move a scale
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
    } else if (target == DType::F32) {
      out.add_owned(name, DType::F32, t.shape, as_bytes(values));
    } else {
      out.add_owned(name, target, t.shape, as_bytes(target == DType::BF16 ? to_bf16(values) : to_f16(values)));
    }
  }
  out.keep_owners_of(w);  // after the loop: it may have recovered tensors
  return out;
}

}  // namespace bertkit::core
