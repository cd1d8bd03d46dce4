#include "core/dnnl/layout_names.h"

#include <oneapi/dnnl/dnnl_debug.h>

namespace bertkit::core {

namespace {

// The layout of `dims` in format tag `tag`, if the tag fits that many dimensions.
std::optional<dnnl::memory::desc> with_tag(const dnnl::memory::dims& dims, int tag) {
  dnnl_memory_desc_t md;
  if (dnnl_memory_desc_init_by_tag(&md, static_cast<int>(dims.size()), dims.data(), dnnl_f32,
                                   static_cast<dnnl_format_tag_t>(tag)) != dnnl_success)
    return std::nullopt;
  return dnnl::memory::desc(md);
}

// Every real tag (undef and any are not layouts; aliases repeat values below the sentinel).
constexpr int kFirstTag = dnnl_format_tag_any + 1;

}  // namespace

std::optional<std::string> layout_name(const dnnl::memory::desc& desc) {
  if (desc.data_type() != dnnl::memory::data_type::f32) return std::nullopt;
  const dnnl::memory::dims dims = desc.dims();
  for (int tag = kFirstTag; tag < dnnl_format_tag_last; ++tag)
    if (auto candidate = with_tag(dims, tag); candidate && *candidate == desc)
      return std::string(dnnl_fmt_tag2str(static_cast<dnnl_format_tag_t>(tag)));
  return std::nullopt;
}

std::optional<dnnl::memory::desc> layout_from_name(const dnnl::memory::dims& dims, std::string_view name) {
  for (int tag = kFirstTag; tag < dnnl_format_tag_last; ++tag)
    if (name == dnnl_fmt_tag2str(static_cast<dnnl_format_tag_t>(tag))) return with_tag(dims, tag);
  return std::nullopt;
}

}  // namespace bertkit::core
