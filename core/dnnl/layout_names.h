#pragma once
// A weight layout named by its data type and oneDNN format tag ("bf16:BA16a64b2a"), and for s8 weights
// carrying oneDNN's s8·s8 compensation after them, its mask ("s8:BA16a64b4a:comp2"). A name means the
// same memory layout in every oneDNN version and on every CPU, so a converted file can record the
// layout of the packed weights it holds, and a later run can tell whether they are exactly what its own
// oneDNN wants. A bare tag ("BA16a64b", files written before the type was named) is f32. Layouts no name
// describes (other extras, such as the scale adjustment of s8 weights on CPUs without VNNI) get none.
#include "core/tensor.h"

#include <oneapi/dnnl/dnnl.hpp>

#include <cstddef>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

namespace bertkit::core {

// The name of this f32, bf16 or s8 layout; nullopt when no name describes it.
std::optional<std::string> layout_name(const dnnl::memory::desc& desc);

// The layout of `dims` that `name` describes; nullopt for an unknown or unfitting name.
std::optional<dnnl::memory::desc> layout_from_name(const dnnl::memory::dims& dims, std::string_view name);

// The type of the tensors a named layout holds: F32, BF16 or I8.
DType layout_dtype(const dnnl::memory::desc& layout);

// The matrix held in `layout` ([rows, cols] as oneDNN's dims) by `bytes` (at least layout.get_size()),
// in plain column-major order ("ba", i.e. PyTorch's row-major [cols, rows]) and the same data type:
// a pure reordering, so the values are exactly those that were packed. An s8 layout's compensation,
// stored after the weights, is not read.
std::vector<std::byte> unpacked(const dnnl::memory::desc& layout, std::span<const std::byte> bytes);

// The other way: `plain` ([rows, cols] column-major, as unpacked() gives it) packed into `out`
// (layout.get_size() bytes), s8's compensation computed after the weights.
void pack(const dnnl::memory::desc& layout, const void* plain, void* out);

// The bytes of a layout that are its weights, before any extra (an s8 layout's compensation).
std::size_t weight_bytes(const dnnl::memory::desc& layout);

}  // namespace bertkit::core
