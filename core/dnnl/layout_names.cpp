#include "core/dnnl/layout_names.h"

#include "core/dnnl/api_compat.h"
#include "core/dnnl/context.h"
#include "core/error.h"

#include <oneapi/dnnl/dnnl_debug.h>

#include <algorithm>
#include <charconv>
#include <cstring>

namespace bertkit::core {

namespace {

constexpr std::string_view kCompensation = ":comp";

// The layout of `dims` in format tag `tag`, if the tag fits that many dimensions; with the s8·s8
// compensation over `compensation_mask` unless that is negative.
std::optional<dnnl::memory::desc> with_tag(const dnnl::memory::dims& dims, dnnl_data_type_t type, int tag,
                                           int compensation_mask) {
  auto plain = dnnl_compat::tagged(dims, type, static_cast<dnnl_format_tag_t>(tag));
  if (!plain || compensation_mask < 0) return plain;
  return dnnl_compat::with_compensation(*plain, compensation_mask);
}

// Every real tag (undef and any are not layouts; aliases repeat values below the sentinel).
constexpr int kFirstTag = dnnl_format_tag_any + 1;

constexpr dnnl_data_type_t kNamedTypes[] = {dnnl_f32, dnnl_bf16, dnnl_s8};

}  // namespace

std::optional<std::string> layout_name(const dnnl::memory::desc& desc) {
  const auto type = static_cast<dnnl_data_type_t>(dnnl_compat::data_type(desc));
  if (std::find(std::begin(kNamedTypes), std::end(kNamedTypes), type) == std::end(kNamedTypes)) return std::nullopt;
  const std::optional<int> compensation_mask = dnnl_compat::compensation_mask(desc);
  if (!compensation_mask) return std::nullopt;
  const dnnl::memory::dims dims = dnnl_compat::dims(desc);
  for (int tag = kFirstTag; tag < dnnl_format_tag_last; ++tag)
    if (auto candidate = with_tag(dims, type, tag, *compensation_mask); candidate && *candidate == desc) {
      std::string name = fmt::format("{}:{}", dnnl_dt2str(type), dnnl_fmt_tag2str(static_cast<dnnl_format_tag_t>(tag)));
      if (*compensation_mask >= 0) name += fmt::format("{}{}", kCompensation, *compensation_mask);
      return name;
    }
  return std::nullopt;
}

std::optional<dnnl::memory::desc> layout_from_name(const dnnl::memory::dims& dims, std::string_view name) {
  dnnl_data_type_t type = dnnl_f32;
  if (auto colon = name.find(':'); colon != std::string_view::npos) {
    const std::string_view type_name = name.substr(0, colon);
    auto known = std::find_if(std::begin(kNamedTypes), std::end(kNamedTypes),
                              [&](dnnl_data_type_t t) { return type_name == dnnl_dt2str(t); });
    if (known == std::end(kNamedTypes)) return std::nullopt;
    type = *known;
    name.remove_prefix(colon + 1);
  }
  int compensation_mask = -1;
  if (auto at = name.find(kCompensation); at != std::string_view::npos) {
    const std::string_view mask = name.substr(at + kCompensation.size());
    auto [end, error] = std::from_chars(mask.data(), mask.data() + mask.size(), compensation_mask);
    if (type != dnnl_s8 || error != std::errc() || end != mask.data() + mask.size() || compensation_mask < 0)
      return std::nullopt;
    name = name.substr(0, at);
  }
  for (int tag = kFirstTag; tag < dnnl_format_tag_last; ++tag)
    if (name == dnnl_fmt_tag2str(static_cast<dnnl_format_tag_t>(tag))) return with_tag(dims, type, tag, compensation_mask);
  return std::nullopt;
}

DType layout_dtype(const dnnl::memory::desc& layout) {
  switch (dnnl_compat::data_type(layout)) {
    case dnnl::memory::data_type::bf16: return DType::BF16;
    case dnnl::memory::data_type::s8: return DType::I8;
    default: return DType::F32;
  }
}

std::vector<std::byte> unpacked(const dnnl::memory::desc& layout, std::span<const std::byte> bytes) {
  if (bytes.size() < layout.get_size()) runtime_error("packed weights of {} bytes, their layout needs {}", bytes.size(), layout.get_size());
  const dnnl::memory::desc source_desc = dnnl_compat::without_extras(layout);
  const dnnl::memory::desc plain_desc(dnnl_compat::dims(layout), dnnl_compat::data_type(layout), dnnl::memory::format_tag::ba);
  std::vector<std::byte> out(plain_desc.get_size());
  auto& ctx = dnnl_context();
  dnnl::memory source(source_desc, ctx.engine, const_cast<std::byte*>(bytes.data()));
  dnnl::memory plain(plain_desc, ctx.engine, out.data());
  dnnl::reorder(source, plain).execute(ctx.stream, source, plain);
  ctx.stream.wait();
  return out;
}

void pack(const dnnl::memory::desc& layout, const void* plain, void* out) {
  auto& ctx = dnnl_context();
  dnnl::memory source({dnnl_compat::dims(layout), dnnl_compat::data_type(layout), dnnl::memory::format_tag::ba}, ctx.engine,
                      const_cast<void*>(plain));
  dnnl::memory packed(layout, ctx.engine, out);
  // The reorder leaves an s8 layout's unused compensation unwritten: zeroed, so that the bytes depend on
  // the weights alone, not on what the memory held before (f32 and bf16 layouts are written whole).
  if (dnnl_compat::data_type(layout) == dnnl::memory::data_type::s8) std::memset(out, 0, layout.get_size());
  dnnl::reorder(source, packed).execute(ctx.stream, source, packed);
  ctx.stream.wait();
}

std::size_t weight_bytes(const dnnl::memory::desc& layout) { return dnnl_compat::without_extras(layout).get_size(); }

}  // namespace bertkit::core
