#include "core/dnnl/api_compat.h"

#include "core/dnnl/context.h"

namespace bertkit::core::dnnl_compat {

#if DNNL_VERSION_MAJOR >= 3

dnnl::matmul::primitive_desc matmul_desc(const dnnl::memory::desc& src, const dnnl::memory::desc& weights,
                                         const dnnl::memory::desc* bias, const dnnl::memory::desc& dst,
                                         const dnnl::primitive_attr& attr) {
  auto& engine = dnnl_context().engine;
  if (bias) return {engine, src, weights, *bias, dst, attr};
  return {engine, src, weights, dst, attr};
}

void append_eltwise(dnnl::post_ops& ops, dnnl::algorithm f, float alpha, float beta) { ops.append_eltwise(f, alpha, beta); }

dnnl::memory::data_type data_type(const dnnl::memory::desc& desc) { return desc.get_data_type(); }

dnnl::memory::dims dims(const dnnl::memory::desc& desc) { return desc.get_dims(); }

std::optional<dnnl::memory::desc> tagged(const dnnl::memory::dims& dims, dnnl_data_type_t type, dnnl_format_tag_t tag) {
  dnnl_memory_desc_t md = nullptr;
  if (dnnl_memory_desc_create_with_tag(&md, static_cast<int>(dims.size()), dims.data(), type, tag) != dnnl_success)
    return std::nullopt;
  return dnnl::memory::desc(md);  // owns md from here
}

std::optional<int> compensation_mask(const dnnl::memory::desc&) { return -1; }

std::optional<dnnl::memory::desc> with_compensation(const dnnl::memory::desc&, int) { return std::nullopt; }

dnnl::memory::desc without_extras(const dnnl::memory::desc& desc) { return desc; }

#else

dnnl::matmul::primitive_desc matmul_desc(const dnnl::memory::desc& src, const dnnl::memory::desc& weights,
                                         const dnnl::memory::desc* bias, const dnnl::memory::desc& dst,
                                         const dnnl::primitive_attr& attr) {
  auto& engine = dnnl_context().engine;
  if (bias) return {dnnl::matmul::desc(src, weights, *bias, dst), attr, engine};
  return {dnnl::matmul::desc(src, weights, dst), attr, engine};
}

void append_eltwise(dnnl::post_ops& ops, dnnl::algorithm f, float alpha, float beta) {
  ops.append_eltwise(1.0f, f, alpha, beta);
}

dnnl::memory::data_type data_type(const dnnl::memory::desc& desc) { return desc.data_type(); }

dnnl::memory::dims dims(const dnnl::memory::desc& desc) { return desc.dims(); }

std::optional<dnnl::memory::desc> tagged(const dnnl::memory::dims& dims, dnnl_data_type_t type, dnnl_format_tag_t tag) {
  dnnl_memory_desc_t md;
  if (dnnl_memory_desc_init_by_tag(&md, static_cast<int>(dims.size()), dims.data(), type, tag) != dnnl_success)
    return std::nullopt;
  return dnnl::memory::desc(md);
}

std::optional<int> compensation_mask(const dnnl::memory::desc& desc) {
  const dnnl_memory_desc_t& md = desc.data;
  if (md.extra.flags == dnnl_memory_extra_flag_compensation_conv_s8s8 && md.data_type == dnnl_s8)
    return md.extra.compensation_mask;
  if (md.extra.flags != dnnl_memory_extra_flag_none) return std::nullopt;
  return -1;
}

std::optional<dnnl::memory::desc> with_compensation(const dnnl::memory::desc& plain, int mask) {
  dnnl_memory_desc_t md = plain.data;
  md.extra.flags = dnnl_memory_extra_flag_compensation_conv_s8s8;
  md.extra.compensation_mask = mask;
  return dnnl::memory::desc(md);
}

dnnl::memory::desc without_extras(const dnnl::memory::desc& desc) {
  dnnl_memory_desc_t md = desc.data;
  md.extra = {};
  return dnnl::memory::desc(md);
}

#endif

}  // namespace bertkit::core::dnnl_compat
