#include "core/model/packed_linears.h"

#include "core/dnnl/layout_names.h"
#include "core/model/linear_weights.h"

#include <cstring>
#include <utility>

namespace bertkit::core {

Linear packed_or_plain(const Weights& weights, const std::string& packed_name, std::span<const float> bias,
                       std::int64_t out, std::int64_t in, Eltwise activation, LinearOutput output,
                       const std::function<LinearWeight()>& plain) {
  if (const PackedView* packed = weights.find_packed(packed_name)) {
    std::vector<float> scales;  // int8: every part's row scales, stacked as the parts are
    for (const auto& part : packed->parts)
      if (weights.info(part + ".scale")) {
        auto s = weights.require(part + ".scale", {out / static_cast<std::int64_t>(packed->parts.size())}).f32();
        scales.insert(scales.end(), s.begin(), s.end());
      }
    if (auto layer = Linear::from_packed({packed->layout, {packed->data, packed->nbytes}, scales}, bias, out, in,
                                         activation, output))
      return std::move(*layer);
  }
  return Linear(plain(), bias, out, in, activation, output);
}

Linear packed_or_plain(const Weights& weights, const LinearDecl& decl, Eltwise activation, LinearOutput output) {
  return packed_or_plain(weights, decl.weight(), linear_bias(weights, decl), decl.out, decl.in, activation, output,
                         [&] { return linear_weight(weights, decl.weight(), decl.out, decl.in); });
}

void add_packed_layers(const Weights& source, Weights& weights, std::span<const PackedLayer> layers) {
  for (const PackedLayer& entry : layers) {
    auto layout = entry.layer->packed_layout();
    if (!layout) continue;  // a layout no name describes cannot be recognised later: the load packs it
    const std::int64_t out = entry.layer->out_features(), in = entry.layer->in_features();
    const auto packed = layout_from_name({in, out}, *layout);
    const auto bytes = entry.layer->packed_bytes();
    // Stored only packed, the plain tensors are recovered by unpacking: store nothing that would not
    // unpack to exactly them (such as s8 weights that the packing itself rescaled).
    const std::vector<std::byte> recovered = unpacked(*packed, bytes);
    std::size_t at = 0;
    bool exact = true;
    for (const auto& part : entry.parts) {
      const TensorView* view = source.find(part);
      exact = exact && view && view->dtype == layout_dtype(*packed) && at + view->nbytes <= recovered.size() &&
              std::memcmp(recovered.data() + at, view->data, view->nbytes) == 0;
      at += view ? view->nbytes : 0;
    }
    if (!exact || at != recovered.size()) continue;
    weights.add_packed_owned(entry.name, {*layout, nullptr, 0, {out, in}, entry.parts}, {bytes.begin(), bytes.end()});
  }
}

}  // namespace bertkit::core
