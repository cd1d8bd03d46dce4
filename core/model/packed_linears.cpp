#include "core/model/packed_linears.h"

#include "core/dnnl/layout_names.h"
#include "core/model/linear_weights.h"

#include <algorithm>
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
    if (auto layer = Linear::from_packed({packed->layout, {packed->data, packed->nbytes}, scales, {}}, bias, out, in,
                                         activation, output))
      return std::move(*layer);
  }
  return Linear(plain(), bias, out, in, activation, output);
}

Linear packed_or_plain(const Weights& weights, const LinearDecl& decl, Eltwise activation, LinearOutput output) {
  return packed_or_plain(weights, decl.weight(), linear_bias(weights, decl), decl.out, decl.in, activation, output,
                         [&] { return linear_weight(weights, decl.weight(), decl.out, decl.in); });
}

namespace {

// An s8 layout's compensation: one s32 per column (output) of the matrix, at the start of the layout's
// extra bytes; the rest of them stay zero (core/dnnl/layout_names.h's pack()).
constexpr std::size_t kCompensationBytes = sizeof(std::int32_t);

// The bytes of rows [first, first + rows) of a matrix of `out` rows packed in `layout` blocked outermost
// by rows, as that block's own packing: its share of the weights (in place) and of the compensation.
struct RowBlock {
  std::span<const std::byte> weights, compensation;
};
RowBlock row_block(const dnnl::memory::desc& layout, std::span<const std::byte> bytes, std::int64_t out,
                   std::int64_t first, std::int64_t rows) {
  const std::size_t weights = weight_bytes(layout), per_row = weights / static_cast<std::size_t>(out);
  const bool compensated = bytes.size() > weights;
  return {bytes.subspan(static_cast<std::size_t>(first) * per_row, static_cast<std::size_t>(rows) * per_row),
          compensated ? bytes.subspan(weights + static_cast<std::size_t>(first) * kCompensationBytes,
                                      static_cast<std::size_t>(rows) * kCompensationBytes)
                      : std::span<const std::byte>{}};
}

}  // namespace

std::optional<std::vector<Linear>> packed_row_blocks(const Weights& weights, const LinearDecl& decl,
                                                     std::span<const Eltwise> activations) {
  const PackedView* packed = weights.find_packed(decl.weight());
  const auto blocks = static_cast<std::int64_t>(activations.size());
  if (!packed || blocks == 0 || decl.out % blocks != 0) return std::nullopt;
  const auto layout = layout_from_name({decl.in, decl.out}, packed->layout);
  if (!layout || layout->get_size() != packed->nbytes || weight_bytes(*layout) % static_cast<std::size_t>(decl.out) != 0)
    return std::nullopt;
  const std::int64_t rows = decl.out / blocks;
  const std::span<const float> bias = linear_bias(weights, decl);
  std::span<const float> scales;  // int8: the matrix's row scales
  if (weights.info(decl.weight() + ".scale")) scales = weights.require(decl.weight() + ".scale", {decl.out}).f32();
  const auto rows_of = [&](std::span<const float> values, std::int64_t first) {
    return values.empty() ? values : values.subspan(static_cast<std::size_t>(first), static_cast<std::size_t>(rows));
  };
  std::vector<Linear> layers;
  for (std::int64_t b = 0; b < blocks; ++b) {
    const RowBlock block = row_block(*layout, {packed->data, packed->nbytes}, decl.out, b * rows, rows);
    auto layer = Linear::from_packed({packed->layout, block.weights, rows_of(scales, b * rows), block.compensation},
                                     rows_of(bias, b * rows), rows, decl.in, activations[static_cast<std::size_t>(b)]);
    if (!layer) return std::nullopt;
    layers.push_back(std::move(*layer));
  }
  return layers;
}

namespace {

// The packed bytes of `layers` stacked by rows, `size` in all: every layer's weights, then every layer's
// compensation (s8) and zeros, which is how a layout blocked outermost by rows packs the whole matrix.
std::vector<std::byte> stacked_bytes(std::span<const Linear* const> layers, std::size_t size) {
  std::vector<std::byte> weights, compensation;
  for (const Linear* layer : layers) {
    const auto bytes = layer->packed_bytes();
    const auto layout = layout_from_name({layer->in_features(), layer->out_features()}, *layer->packed_layout());
    const RowBlock block = row_block(*layout, bytes, layer->out_features(), 0, layer->out_features());
    weights.insert(weights.end(), block.weights.begin(), block.weights.end());
    compensation.insert(compensation.end(), block.compensation.begin(), block.compensation.end());
  }
  weights.insert(weights.end(), compensation.begin(), compensation.end());
  weights.resize(std::max(size, weights.size()));
  return weights;
}

// Whether row_block() gives back each layer's own packed bytes from `bytes`, the stacked matrix.
bool splits_back(std::span<const Linear* const> layers, const dnnl::memory::desc& layout, std::span<const std::byte> bytes,
                 std::int64_t out) {
  std::int64_t first = 0;
  for (const Linear* layer : layers) {
    const RowBlock block = row_block(layout, bytes, out, first, layer->out_features());
    first += layer->out_features();
    std::vector<std::byte> own(block.weights.begin(), block.weights.end());
    own.insert(own.end(), block.compensation.begin(), block.compensation.end());
    const auto want = layer->packed_bytes();
    own.resize(std::max(own.size(), want.size()));
    if (!std::equal(own.begin(), own.end(), want.begin(), want.end())) return false;
  }
  return true;
}

// The plain parts as stored in `source`, stacked by rows: nullopt unless every one is there in `type`.
std::optional<std::vector<std::byte>> plain_parts(const Weights& source, std::span<const std::string> parts, DType type) {
  std::vector<std::byte> plain;
  for (const auto& part : parts) {
    const TensorView* view = source.find(part);
    if (!view || view->dtype != type) return std::nullopt;
    plain.insert(plain.end(), view->data, view->data + view->nbytes);
  }
  return plain;
}

}  // namespace

void add_packed_layers(const Weights& source, Weights& weights, std::span<const PackedLayer> entries) {
  for (const PackedLayer& entry : entries) {
    const auto layout = entry.layers.front()->packed_layout();
    // A layout no name describes cannot be recognised later: the load packs it.
    if (!layout) continue;
    const std::int64_t in = entry.layers.front()->in_features();
    std::int64_t out = 0;
    bool same_layout = true;
    for (const Linear* layer : entry.layers) {
      same_layout = same_layout && layer->packed_layout() == layout && layer->in_features() == in;
      out += layer->out_features();
    }
    const auto packed = same_layout ? layout_from_name({in, out}, *layout) : std::nullopt;
    if (!packed) continue;
    const auto plain = plain_parts(source, entry.parts, layout_dtype(*packed));
    if (!plain) continue;
    std::vector<std::byte> bytes;
    if (entry.layers.size() == 1) {
      const auto own = entry.layers.front()->packed_bytes();
      bytes.assign(own.begin(), own.end());
    } else {
      // Several layers' bytes in a row are the whole matrix's packing only in some layouts: checked both
      // ways, against oneDNN's packing of the whole matrix and against each layer's own.
      bytes = stacked_bytes(entry.layers, packed->get_size());
      std::vector<std::byte> whole(packed->get_size());
      pack(*packed, plain->data(), whole.data());
      if (whole != bytes || weight_bytes(*packed) % static_cast<std::size_t>(out) != 0 ||
          !splits_back(entry.layers, *packed, bytes, out))
        continue;
    }
    if (bytes.size() != packed->get_size()) continue;
    // Stored only packed, the plain tensors are recovered by unpacking: store nothing that would not
    // unpack to exactly them (such as s8 weights that the packing itself rescaled).
    const std::vector<std::byte> recovered = unpacked(*packed, bytes);
    if (recovered.size() != plain->size() || std::memcmp(recovered.data(), plain->data(), plain->size()) != 0) continue;
    weights.add_packed_owned(entry.name, {*layout, nullptr, 0, {out, in}, entry.parts}, std::move(bytes));
  }
}

}  // namespace bertkit::core
