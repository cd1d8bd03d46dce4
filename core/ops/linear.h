#pragma once
// A linear layer on oneDNN: y = act(x · Wᵀ + b), or y += x · Wᵀ + b for a residual connection.
// The weights are reordered once, here, into the packed layout oneDNN picks, unless they come already
// packed in exactly that layout (a converted file stores them so): then they are used in place, and a
// memory-mapped model needs no copy and no work at load. Bias, activation and the residual sum run as
// post-ops of the matmul, so the output is written once (int8: by bertkit's own pass over the output,
// core/ops/int8_epilogue.h, that also applies the per-row scales, which oneDNN 2.6's fast int8 matmul
// cannot take).
//
// The weights' type is the compute type (f16, and bf16 or int8 where oneDNN cannot compute them, see
// cpu_features.h, are widened to f32): f32; bf16 (x rounded to bf16 per call unless given so, bf16 dot
// products accumulated in f32); int8 with one f32 scale per output channel (x quantised per call to s8
// with one scale per row unless given so, s8·s8 products accumulated in s32, then scaled to f32, so a
// row's result depends on that row alone). x and y are f32 unless a form below says otherwise.
#include "core/dnnl/matmul_cache.h"
#include "core/ops/eltwise.h"
#include "core/ops/layer_norm.h"
#include "core/ops/reduced_activations.h"
#include "core/tensor.h"

#include <oneapi/dnnl/dnnl.hpp>

#include <cstddef>
#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <string_view>

namespace bertkit::core {

enum class LinearOutput {
  Overwrite,   // y = act(x·Wᵀ + b)
  Accumulate,  // y += x·Wᵀ + b (activation must be Identity)
};

// A weight matrix [out, in], row-major as PyTorch stores nn.Linear, in the type it is computed in.
struct LinearWeight {
  DType dtype = DType::F32;  // F32, BF16 or I8 (F16 is computed in f32)
  const void* data = nullptr;
  std::span<const float> scales;  // I8 only: [out], value = int8 · scale of its row
};

// The same weights already in a packed layout, named as layout_names.h names it (the name gives the type).
struct PackedWeights {
  std::string_view layout;
  std::span<const std::byte> bytes;  // must outlive the layer
  std::span<const float> scales;     // s8 only: as LinearWeight's
  // s8's compensation where it is not right after the weights in `bytes` (a block of rows of a larger
  // packed matrix, core/model/packed_linears.h): the layer then copies both into memory of its own, the
  // layout's other extra bytes zero.
  std::span<const std::byte> compensation;
};

class Linear {
 public:
  Linear() = default;
  // bias: [out] or empty. Weights and bias are copied.
  Linear(const LinearWeight& weight, std::span<const float> bias, std::int64_t out, std::int64_t in,
         Eltwise activation = Eltwise::Identity, LinearOutput output = LinearOutput::Overwrite);
  Linear(std::span<const float> weight, std::span<const float> bias, std::int64_t out, std::int64_t in,
         Eltwise activation = Eltwise::Identity, LinearOutput output = LinearOutput::Overwrite);
  // The layer on weights already packed, used in place, when their layout is exactly the one this
  // machine's oneDNN picks for it; nullopt otherwise (packed on another CPU or by another oneDNN): then
  // build it from the plain weights.
  static std::optional<Linear> from_packed(const PackedWeights& packed, std::span<const float> bias, std::int64_t out,
                                           std::int64_t in, Eltwise activation = Eltwise::Identity,
                                           LinearOutput output = LinearOutput::Overwrite);

  // x: [rows, in], y: [rows, out], both row-major and not overlapping.
  void forward(const float* x, std::int64_t rows, float* y) const;
  // A layer that computes in bf16 (reads_bf16()) also takes x already rounded to bf16, by the op that
  // wrote it, and an Overwrite one writes y rounded to bf16 for the next such layer: the same values as
  // rounding in forward(), without a pass over the activations of its own.
  bool reads_bf16() const { return kind_.weights == dnnl::memory::data_type::bf16; }
  void forward(const std::uint16_t* x, std::int64_t rows, float* y) const;
  void forward(const float* x, std::int64_t rows, std::uint16_t* y) const;
  void forward(const std::uint16_t* x, std::int64_t rows, std::uint16_t* y) const;
  // y = (x·Wᵀ + b) ⊙ m for an Overwrite layer without activation, m [rows, out] f32, multiplied element
  // by element as the matmul (int8: its epilogue) writes y: a gated feed-forward's product, without a
  // pass over memory of its own. bf16 in and out: for a layer that reads_bf16().
  void forward_multiplied(const float* x, std::int64_t rows, const float* m, float* y) const;
  void forward_multiplied(const std::uint16_t* x, std::int64_t rows, const float* m, std::uint16_t* y) const;
  // y += x·Wᵀ + b, then every row of y normalised in place by `norm`, for a residual (Accumulate) layer
  // followed by its LayerNorm (a post-norm block's): an int8 layer adds and normalises each row in one
  // pass while it is in cache, the others normalise after their matmul.
  void forward_normed(const float* x, std::int64_t rows, float* y, const LayerNormParams& norm) const;
  void forward_normed(const std::uint16_t* x, std::int64_t rows, float* y, const LayerNormParams& norm) const;
  // A layer that computes in int8 (reads_s8()) also takes x already quantised, by the op that wrote it,
  // and an Overwrite one writes y quantised for the next such layer: the same values as quantising in
  // forward(), without writing the f32 rows and reading them again.
  bool reads_s8() const { return kind_.weights == dnnl::memory::data_type::s8; }
  void forward(const float* x, std::int64_t rows, QuantizedRows y) const;
  void forward(QuantizedRows x, std::int64_t rows, float* y) const;
  void forward(QuantizedRows x, std::int64_t rows, QuantizedRows y) const;
  void forward_multiplied(const float* x, std::int64_t rows, const float* m, QuantizedRows y) const;
  void forward_multiplied(QuantizedRows x, std::int64_t rows, const float* m, QuantizedRows y) const;
  void forward_normed(QuantizedRows x, std::int64_t rows, float* y, const LayerNormParams& norm) const;

  // x also given in a reduced type (a norm's ReducedCopy): the layer reads the copy where it holds the
  // type the layer computes in, else x. The same values either way.
  void forward(const float* x, const ReducedCopy& x_copy, std::int64_t rows, float* y) const;
  void forward(const float* x, const ReducedCopy& x_copy, std::int64_t rows, std::uint16_t* y) const;
  void forward(const float* x, const ReducedCopy& x_copy, std::int64_t rows, QuantizedRows y) const;

  std::int64_t in_features() const { return kind_.k; }
  std::int64_t out_features() const { return kind_.n; }
  bool computes_in_f32() const { return kind_.weights == dnnl::memory::data_type::f32; }
  // The packed weights as this layer uses them, for storing: nullopt when no name describes their layout.
  std::optional<std::string> packed_layout() const;
  std::span<const std::byte> packed_bytes() const;

 private:
  // Checks the sizes, sets kind_ and copies the bias.
  void init(std::span<const float> bias, std::int64_t out, std::int64_t in, Eltwise activation, LinearOutput output,
            dnnl::memory::data_type weights_type);

  // What a call does after the layer's own epilogue: multiply (forward_multiplied) or normalise
  // (forward_normed) its output; and int8's quantised input or output.
  struct Then {
    const float* multiplier = nullptr;
    const LayerNormParams* norm = nullptr;
    QuantizedRows x_q{}, y_q{};  // int8 in or out (x or y is then null)
  };
  // y = x·Wᵀ as forward() computes it, x and y given in these types (bf16 only where reads_bf16()), then
  // `then`.
  void run(const void* x, dnnl::memory::data_type x_type, std::int64_t rows, void* y, dnnl::memory::data_type y_type,
           Then then) const;
  // The f32 and bf16 layers' matmul (kind: kind_ with the call's output type and multiplier).
  void run_matmul(const MatmulKind& kind, const void* x, dnnl::memory::data_type x_type, std::int64_t rows, void* y,
                  const float* multiplier) const;
  // An int8 layer's quantisation, matmul and epilogue, `then` included.
  void run_int8(const MatmulKind& kind, const float* x, std::int64_t rows, float* y, Then then) const;

  MatmulKind kind_;
  dnnl::memory weights_;
  // Whether forward() takes the row-blocked path (core/ops/linear_row_blocks.h): fixed by the kind, the
  // weights' layout and the process's CPU path, so decided once, when the weights are set.
  bool row_blocks_ = false;
  dnnl::memory bias_;
  dnnl::memory column_scales_;  // int8: the weights' scale per output channel
};

}  // namespace bertkit::core
