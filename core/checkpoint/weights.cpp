#include "core/checkpoint/weights.h"

#include "core/error.h"

#include <algorithm>
#include <cstdint>
#include <cstring>

namespace bertkit::core {

void Weights::add(std::string name, TensorView view) {
  if (recoverable_.count(name)) runtime_error("tensor {} added twice", name);
  auto [it, inserted] = tensors_.emplace(std::move(name), std::move(view));
  if (!inserted) runtime_error("tensor {} added twice", it->first);
}

void Weights::add_recoverable(std::string name, TensorInfo info, std::function<std::vector<std::byte>()> recover) {
  if (tensors_.count(name)) runtime_error("tensor {} added twice", name);
  auto [it, inserted] = recoverable_.emplace(std::move(name), Recoverable{std::move(info), std::move(recover)});
  if (!inserted) runtime_error("tensor {} added twice", it->first);
}

void Weights::add_owned(std::string name, DType dtype, Shape shape, std::vector<std::byte> bytes) {
  auto owned = std::make_shared<const std::vector<std::byte>>(std::move(bytes));
  TensorView view{dtype, std::move(shape), owned->data(), owned->size()};
  keep(std::move(owned));
  add(std::move(name), std::move(view));
}

void Weights::add_f32(std::string name, const TensorView& view) {
  bool aligned = reinterpret_cast<std::uintptr_t>(view.data) % alignof(float) == 0;
  if (view.dtype == DType::F32 && aligned) return add(std::move(name), view);
  std::vector<float> values = to_f32(view);
  std::vector<std::byte> bytes(values.size() * sizeof(float));
  std::memcpy(bytes.data(), values.data(), bytes.size());
  add_owned(std::move(name), DType::F32, view.shape, std::move(bytes));
}

void Weights::keep(std::shared_ptr<const void> owner) { owners_.push_back(std::move(owner)); }

void Weights::keep_owners_of(const Weights& other) {
  std::lock_guard lock(*other.lock_);
  owners_.insert(owners_.end(), other.owners_.begin(), other.owners_.end());
}

void Weights::add_packed(std::string name, PackedView view) { packed_[std::move(name)] = std::move(view); }

void Weights::add_packed_owned(std::string name, PackedView view, std::vector<std::byte> bytes) {
  auto owned = std::make_shared<std::vector<std::byte>>(std::move(bytes));
  view.data = owned->data();
  view.nbytes = owned->size();
  add_packed(std::move(name), std::move(view));
  keep(std::move(owned));
}

const PackedView* Weights::find_packed(std::string_view name) const {
  auto it = packed_.find(name);
  return it == packed_.end() ? nullptr : &it->second;
}

const TensorView* Weights::find(std::string_view name) const {
  std::lock_guard lock(*lock_);
  if (auto it = tensors_.find(name); it != tensors_.end()) return &it->second;
  auto pending = recoverable_.find(name);
  if (pending == recoverable_.end()) return nullptr;
  auto owned = std::make_shared<const std::vector<std::byte>>(pending->second.recover());
  TensorInfo& info = pending->second.info;
  if (owned->size() != static_cast<std::size_t>(shape_numel(info.shape)) * dtype_size(info.dtype))
    runtime_error("tensor {} recovered as {} bytes", name, owned->size());
  TensorView view{info.dtype, std::move(info.shape), owned->data(), owned->size()};
  owners_.push_back(std::move(owned));
  auto it = tensors_.emplace(pending->first, std::move(view)).first;
  recoverable_.erase(pending);
  return &it->second;
}

std::optional<TensorInfo> Weights::info(std::string_view name) const {
  std::lock_guard lock(*lock_);
  if (auto it = tensors_.find(name); it != tensors_.end()) return TensorInfo{it->second.dtype, it->second.shape};
  if (auto it = recoverable_.find(name); it != recoverable_.end()) return it->second.info;
  return std::nullopt;
}

const TensorView& Weights::require(std::string_view name, const Shape& expected) const {
  const TensorView* t = find(name);
  if (!t) bad_input("missing tensor {} (expected shape {})", name, shape_string(expected));
  if (t->shape != expected)
    bad_input("tensor {} has shape {}, expected {}", name, shape_string(t->shape), shape_string(expected));
  return *t;
}

std::vector<float> Weights::values_f32(std::string_view name) const {
  const TensorView* t = find(name);
  if (!t) bad_input("missing tensor {}", name);
  if (t->dtype != DType::I8) return to_f32(*t);
  if (t->shape.size() != 2) bad_input("int8 tensor {} is not a matrix", name);
  const auto rows = static_cast<std::size_t>(t->shape[0]), cols = static_cast<std::size_t>(t->shape[1]);
  const TensorView& scale = require(std::string(name) + ".scale", {t->shape[0]});
  auto scales = scale.f32();
  std::vector<float> out(rows * cols);
  const auto* q = reinterpret_cast<const std::int8_t*>(t->data);
  for (std::size_t r = 0; r < rows; ++r)
    for (std::size_t c = 0; c < cols; ++c) out[r * cols + c] = static_cast<float>(q[r * cols + c]) * scales[r];
  return out;
}

std::vector<std::string> Weights::names() const {
  std::lock_guard lock(*lock_);
  std::vector<std::string> out;
  out.reserve(tensors_.size() + recoverable_.size());
  for (const auto& [name, view] : tensors_) out.push_back(name);
  for (const auto& [name, pending] : recoverable_) out.push_back(name);
  std::sort(out.begin(), out.end());
  return out;
}

std::size_t model_tensor_count(const Weights& w) {
  const auto names = w.names();
  return static_cast<std::size_t>(
      std::count_if(names.begin(), names.end(), [](const std::string& n) { return !n.ends_with(".scale"); }));
}

std::optional<std::string> TiedTensors::first_with(const std::string& name, const TensorView& t) {
  auto [it, inserted] = first_.try_emplace(t.data, name, t);
  const TensorView& first = it->second.second;
  if (inserted || t.nbytes == 0 || first.shape != t.shape || first.dtype != t.dtype) return std::nullopt;
  return it->second.first;
}

}  // namespace bertkit::core
