#pragma once
// The oneDNN calls that version 3 spells differently from 2.x (Debian 12 ships 2.6, Debian 13 3.7),
// so that the rest of bertkit is written once for both. Version 3 dropped the operation descriptors
// (matmul::desc: a primitive descriptor is made from the memory descriptors directly),
// the eltwise post-op's scale, and the memory descriptor's public struct (read through queries). The
// 2.x path is the very calls bertkit made before; nothing here runs per matmul except
// matrix_strides, which reads a field (2.x) or queries a pointer to it (3.x), allocating nothing.
#include <oneapi/dnnl/dnnl.hpp>

#include <array>
#include <cstdint>
#include <optional>

namespace bertkit::core::dnnl_compat {

// y = x · W (+ bias, when `bias` is not null) with the attributes' post-ops.
dnnl::matmul::primitive_desc matmul_desc(const dnnl::memory::desc& src, const dnnl::memory::desc& weights,
                                         const dnnl::memory::desc* bias, const dnnl::memory::desc& dst,
                                         const dnnl::primitive_attr& attr);

// An eltwise post-op f(x; alpha, beta), unscaled.
void append_eltwise(dnnl::post_ops& ops, dnnl::algorithm f, float alpha, float beta);

dnnl::memory::data_type data_type(const dnnl::memory::desc& desc);
dnnl::memory::dims dims(const dnnl::memory::desc& desc);

// The two outer strides of a blocked 2-D layout, in elements.
inline std::array<std::int64_t, 2> matrix_strides(const dnnl::memory::desc& desc) {
#if DNNL_VERSION_MAJOR >= 3
  const dnnl_dims_t* strides = nullptr;
  if (dnnl_memory_desc_query(desc.get(), dnnl_query_strides, &strides) != dnnl_success || !strides) return {0, 0};
  return {(*strides)[0], (*strides)[1]};
#else
  return {desc.data.format_desc.blocking.strides[0], desc.data.format_desc.blocking.strides[1]};
#endif
}

// The layout of `dims` in format tag `tag`; nullopt when the tag does not fit that many dimensions.
std::optional<dnnl::memory::desc> tagged(const dnnl::memory::dims& dims, dnnl_data_type_t type, dnnl_format_tag_t tag);

// What an s8 layout carries after its values: -1 nothing, a mask M ≥ 0 oneDNN's s8·s8 compensation
// over M alone; nullopt anything else (such as the scale adjustment of CPUs without VNNI).
//
// oneDNN 3 neither shows nor sets a layout's extras: there this is -1 for every layout (one with
// extras then equals no plain layout, so it gets no name) and with_compensation is nullopt (a
// compensated name is unknown to a bertkit built with oneDNN 3, which packs such weights at load).
std::optional<int> compensation_mask(const dnnl::memory::desc& desc);

// `plain` with the s8·s8 compensation over `mask` after its values.
std::optional<dnnl::memory::desc> with_compensation(const dnnl::memory::desc& plain, int mask);

// The layout of the values alone, without what follows them.
dnnl::memory::desc without_extras(const dnnl::memory::desc& desc);

}  // namespace bertkit::core::dnnl_compat
