// A gated layer's two halves stored as the one packed matrix they come from (ModernBERT's Wi), and split
// back at load with each half's own bytes: f32, bf16 and int8 (whose compensation follows all the
// weights, not each half's).
#include "core/checkpoint/quantize.h"
#include "core/dnnl/layout_names.h"
#include "core/model/linear_weights.h"
#include "core/model/packed_linears.h"
#include "core/ops/cpu_features.h"
#include "core/ops/gated_ffn.h"
#include "core/tensor.h"
#include "unit/reference_math.h"

#include <doctest/doctest.h>

#include <cstring>
#include <vector>

using namespace bertkit::core;

namespace {

std::vector<std::byte> bytes_of(const void* data, std::size_t n) {
  const auto* p = static_cast<const std::byte*>(data);
  return {p, p + n};
}

}  // namespace

TEST_CASE("packed linears: a gated layer's halves are stored as their matrix's packing where their bytes in a "
          "row are it, and split back in place with the same results") {
  const std::int64_t h = 64, i = 128, rows = 7;
  const auto w = bktest::random_floats(2 * i * h, 121, -0.5f, 0.5f);
  const auto bias = bktest::random_floats(2 * i, 122);
  const auto x = bktest::random_floats(rows * h, 123, -2.0f, 2.0f);
  std::vector<std::uint16_t> bf16(w.size());
  for (std::size_t j = 0; j < w.size(); ++j) bf16[j] = f32_to_bf16(w[j]);
  const auto int8 = quantize_int8_rows(w, 2 * i, h);
  const LinearDecl decl{"mlp.Wi", 2 * i, h, true};
  for (DType type : {DType::F32, DType::BF16, DType::I8}) {
    CAPTURE(dtype_name(type));
    Weights source;
    if (type == DType::F32) source.add_owned(decl.weight(), type, {2 * i, h}, bytes_of(w.data(), w.size() * 4));
    if (type == DType::BF16) source.add_owned(decl.weight(), type, {2 * i, h}, bytes_of(bf16.data(), bf16.size() * 2));
    if (type == DType::I8) {
      source.add_owned(decl.weight(), type, {2 * i, h}, bytes_of(int8.values.data(), int8.values.size()));
      source.add_owned(decl.weight() + ".scale", DType::F32, {2 * i}, bytes_of(int8.scales.data(), int8.scales.size() * 4));
    }
    source.add_owned(decl.bias(), DType::F32, {2 * i}, bytes_of(bias.data(), bias.size() * 4));
    const GatedFeedForwardSpec spec{.hidden = h, .intermediate = i, .activation = Eltwise::Gelu};
    const auto [activated, other] =
        GatedFeedForward::input_halves(spec, linear_weight(source, decl.weight(), 2 * i, h), linear_bias(source, decl));
    Weights stored;
    const PackedLayer entry{decl.weight(), {decl.weight()}, {&activated, &other}};
    add_packed_layers(source, stored, {&entry, 1});
    const PackedView* packed = stored.find_packed(decl.weight());
    if (!packed) {
      // A layout that is not blocked outermost by rows (or, for s8 and bf16, a type computed in f32 here).
      MESSAGE("not stored: the halves' layout is " << activated.packed_layout().value_or("unnamed"));
      // AVX-512's layouts are blocked outermost by 64 or 16 rows, and 128 rows are whole blocks.
      CHECK((cpu_selection().path != CpuPath::Avx512 || (type == DType::I8 && activated.computes_in_f32())));
      continue;
    }
    // The plain matrix comes back from the stored bytes.
    const auto layout = layout_from_name({h, 2 * i}, packed->layout);
    REQUIRE(layout);
    const auto recovered = unpacked(*layout, {packed->data, packed->nbytes});
    const TensorView* plain = source.find(decl.weight());
    REQUIRE(recovered.size() == plain->nbytes);
    CHECK(std::memcmp(recovered.data(), plain->data, plain->nbytes) == 0);
    // Split back, the halves compute what the halves built from the plain matrix compute.
    for (const char* name : {"mlp.Wi.bias", "mlp.Wi.weight.scale"})
      if (const TensorView* view = source.find(name)) stored.add(name, *view);
    const Eltwise activations[] = {Eltwise::Gelu, Eltwise::Identity};
    const auto halves = packed_row_blocks(stored, decl, activations);
    REQUIRE(halves);
    REQUIRE(halves->size() == 2);
    for (int half = 0; half < 2; ++half) {
      const Linear& want_layer = half == 0 ? activated : other;
      const Linear& got_layer = (*halves)[static_cast<std::size_t>(half)];
      CHECK(std::equal(want_layer.packed_bytes().begin(), want_layer.packed_bytes().end(), got_layer.packed_bytes().begin(),
                       got_layer.packed_bytes().end()));
      std::vector<float> want(rows * i), got(rows * i);
      want_layer.forward(x.data(), rows, want.data());
      got_layer.forward(x.data(), rows, got.data());
      CHECK(std::memcmp(want.data(), got.data(), want.size() * sizeof(float)) == 0);
    }
  }
}
