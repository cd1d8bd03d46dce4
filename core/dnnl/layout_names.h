#pragma once
// A weight layout named by its oneDNN format tag ("BA16a64b"): a name means the same memory layout in
// every oneDNN version and on every CPU, so a converted file can record the layout of the packed
// weights it holds, and a later run can tell whether they are exactly what its own oneDNN wants.
#include <oneapi/dnnl/dnnl.hpp>

#include <optional>
#include <string>
#include <string_view>

namespace bertkit::core {

// The tag naming this f32 layout; nullopt when no single tag describes it.
std::optional<std::string> layout_name(const dnnl::memory::desc& desc);

// The f32 layout of `dims` that the tag `name` describes; nullopt for an unknown or unfitting name.
std::optional<dnnl::memory::desc> layout_from_name(const dnnl::memory::dims& dims, std::string_view name);

}  // namespace bertkit::core
