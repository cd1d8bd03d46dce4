#include "core/ops/linear.h"

#include "core/dnnl/api_compat.h"
#include "core/dnnl/context.h"
#include "core/dnnl/layout_names.h"
#include "core/error.h"
#include "core/ops/buffer.h"
#include "core/ops/cpu_features.h"
#include "core/ops/int8_epilogue.h"
#include "core/ops/int8_row_tiles.h"
#include "core/ops/layer_norm.h"
#include "core/ops/linear_row_blocks.h"
#include "core/ops/op_profile.h"
#include "core/ops/reduced_activations.h"
#include "core/ops/threading.h"

#include <algorithm>
#include <optional>
#include <type_traits>
#include <unordered_map>

namespace bertkit::core {
namespace {

using dt = dnnl::memory::data_type;
using tag = dnnl::memory::format_tag;

const char* type_label(dt type) {
  switch (type) {
    case dt::bf16: return "bf16";
    case dt::s8: return "int8";
    default: return "f32";
  }
}

dt dnnl_type(DType type) {
  switch (type) {
    case DType::F32: return dt::f32;
    case DType::BF16: return dt::bf16;
    case DType::I8: return dt::s8;
    default: runtime_error("a linear layer cannot compute in {}", dtype_name(type));
  }
}

// The matmul's input in its compute type, and int8's row scales, rewritten by every call (one thread
// runs the encoder).
thread_local FloatBuffer reduced_input;
thread_local FloatBuffer row_scales;
thread_local FloatBuffer int8_product;

// A [1, n] row of f32 values, as the matmul or its post-ops take it.
dnnl::memory row_memory(std::span<const float> values) {
  dnnl::memory row({{1, static_cast<std::int64_t>(values.size())}, dt::f32, tag::ab}, dnnl_context().engine);
  std::copy(values.begin(), values.end(), static_cast<float*>(row.get_data_handle()));
  return row;
}

// y ⊙= m over n values: forward_multiplied where the matmul cannot take the multiplier.
void multiply_in_place(float* y, const float* m, std::int64_t n) {
  ProfiledOp op("multiply outputs");
#pragma omp parallel for simd schedule(static) if (n >= (std::int64_t{1} << 18))
  for (std::int64_t j = 0; j < n; ++j) y[j] *= m[j];
}

}  // namespace

void Linear::init(std::span<const float> bias, std::int64_t out, std::int64_t in, Eltwise activation,
                  LinearOutput output, dt weights_type) {
  if (out <= 0 || in <= 0) runtime_error("linear layer [{}, {}] has no weights", out, in);
  if (!bias.empty() && static_cast<std::int64_t>(bias.size()) != out)
    runtime_error("linear layer with {} outputs given {} biases", out, bias.size());
  if (output == LinearOutput::Accumulate && activation != Eltwise::Identity)
    runtime_error("a residual linear layer cannot have an activation");
  kind_ = {in, out, !bias.empty(), weights_type, activation, output == LinearOutput::Accumulate};
  if (kind_.bias) bias_ = row_memory(bias);
}

Linear::Linear(std::span<const float> weight, std::span<const float> bias, std::int64_t out, std::int64_t in,
               Eltwise activation, LinearOutput output)
    : Linear(LinearWeight{DType::F32, weight.data(), {}}, bias, out, in, activation, output) {
  if (static_cast<std::int64_t>(weight.size()) != out * in)
    runtime_error("linear layer [{}, {}] given {} weights", out, in, weight.size());
}

Linear::Linear(const LinearWeight& weight, std::span<const float> bias, std::int64_t out, std::int64_t in,
               Eltwise activation, LinearOutput output) {
  // f16 is computed in f32, and so are bf16 and int8 where oneDNN 2.6 cannot compute them (bf16 below
  // AVX-512, int8 without VNNI: see cpu_features.h): the weights are widened, int8 times its scales.
  const bool widen = weight.dtype == DType::F16 ||
                     (weight.dtype == DType::BF16 && !bf16_matmul_supported(cpu_selection())) ||
                     (weight.dtype == DType::I8 && !int8_matmul_supported(cpu_selection()));
  const DType type = widen ? DType::F32 : weight.dtype;
  init(bias, out, in, activation, output, dnnl_type(type));
  if (weight.dtype == DType::I8 && static_cast<std::int64_t>(weight.scales.size()) != out)
    runtime_error("int8 linear layer with {} outputs given {} scales", out, weight.scales.size());
  std::vector<float> widened;
  const void* data = weight.data;
  if (widen && weight.dtype == DType::I8) {
    widened.resize(static_cast<std::size_t>(out * in));
    const auto* q = static_cast<const std::int8_t*>(data);
    for (std::int64_t o = 0; o < out; ++o)
      for (std::int64_t i = 0; i < in; ++i) widened[o * in + i] = static_cast<float>(q[o * in + i]) * weight.scales[o];
    data = widened.data();
  } else if (widen) {
    widened = to_f32(TensorView{weight.dtype, {out, in}, static_cast<const std::byte*>(data), static_cast<std::size_t>(out * in * 2)});
    data = widened.data();
  }
  if (type == DType::I8) column_scales_ = row_memory(weight.scales);

  SerialScope serial(in * out < kMinParallelWork);
  // PyTorch's [out, in] row-major is the [in, out] matrix oneDNN wants, in column-major ("ba") order.
  weights_ = dnnl::memory(packed_weights_desc(kind_), dnnl_context().engine);
  pack(weights_.get_desc(), data, weights_.get_data_handle());
  row_blocks_ = uses_row_blocks(kind_, weights_.get_desc());
}

std::optional<Linear> Linear::from_packed(const PackedWeights& packed, std::span<const float> bias, std::int64_t out,
                                          std::int64_t in, Eltwise activation, LinearOutput output) {
  const auto stored = layout_from_name({in, out}, packed.layout);
  // bf16 or int8 packed on another machine is unpacked and widened where that type is not computed.
  if (!stored) return std::nullopt;
  const dt stored_type = dnnl_compat::data_type(*stored);
  if ((stored_type == dt::bf16 && !bf16_matmul_supported(cpu_selection())) ||
      (stored_type == dt::s8 && !int8_matmul_supported(cpu_selection())))
    return std::nullopt;
  Linear layer;
  layer.init(bias, out, in, activation, output, stored_type);
  const dnnl::memory::desc wanted = packed_weights_desc(layer.kind_);
  const bool in_place = packed.compensation.empty();
  if (*stored != wanted || (in_place ? packed.bytes.size() != wanted.get_size()
                                     : packed.bytes.size() != weight_bytes(wanted) ||
                                           packed.bytes.size() + packed.compensation.size() > wanted.get_size()))
    return std::nullopt;
  if (layer.kind_.weights == dt::s8) {
    if (static_cast<std::int64_t>(packed.scales.size()) != out)
      runtime_error("int8 linear layer with {} outputs given {} scales", out, packed.scales.size());
    layer.column_scales_ = row_memory(packed.scales);
  }
  if (in_place) {
    layer.weights_ = dnnl::memory(wanted, dnnl_context().engine, const_cast<std::byte*>(packed.bytes.data()));
  } else {
    layer.weights_ = dnnl::memory(wanted, dnnl_context().engine);
    auto* own = static_cast<std::byte*>(layer.weights_.get_data_handle());
    std::fill(std::copy(packed.compensation.begin(), packed.compensation.end(),
                        std::copy(packed.bytes.begin(), packed.bytes.end(), own)),
              own + wanted.get_size(), std::byte{0});
  }
  layer.row_blocks_ = uses_row_blocks(layer.kind_, wanted);
  return layer;
}

std::optional<std::string> Linear::packed_layout() const { return layout_name(weights_.get_desc()); }

std::span<const std::byte> Linear::packed_bytes() const {
  return {static_cast<const std::byte*>(weights_.get_data_handle()), weights_.get_desc().get_size()};
}

void Linear::forward(const float* x, std::int64_t rows, float* y) const { run(x, dt::f32, rows, y, dt::f32, {}); }
void Linear::forward(const std::uint16_t* x, std::int64_t rows, float* y) const { run(x, dt::bf16, rows, y, dt::f32, {}); }
void Linear::forward(const float* x, std::int64_t rows, std::uint16_t* y) const { run(x, dt::f32, rows, y, dt::bf16, {}); }
void Linear::forward(const std::uint16_t* x, std::int64_t rows, std::uint16_t* y) const {
  run(x, dt::bf16, rows, y, dt::bf16, {});
}

void Linear::forward_multiplied(const float* x, std::int64_t rows, const float* m, float* y) const {
  run(x, dt::f32, rows, y, dt::f32, {.multiplier = m});
}
void Linear::forward_multiplied(const std::uint16_t* x, std::int64_t rows, const float* m, std::uint16_t* y) const {
  run(x, dt::bf16, rows, y, dt::bf16, {.multiplier = m});
}

void Linear::forward(const float* x, std::int64_t rows, QuantizedRows y) const {
  run(x, dt::f32, rows, nullptr, dt::s8, {.y_q = y});
}
void Linear::forward(QuantizedRows x, std::int64_t rows, float* y) const { run(nullptr, dt::s8, rows, y, dt::f32, {.x_q = x}); }
void Linear::forward(QuantizedRows x, std::int64_t rows, QuantizedRows y) const {
  run(nullptr, dt::s8, rows, nullptr, dt::s8, {.x_q = x, .y_q = y});
}
void Linear::forward_multiplied(const float* x, std::int64_t rows, const float* m, QuantizedRows y) const {
  run(x, dt::f32, rows, nullptr, dt::s8, {.multiplier = m, .y_q = y});
}
void Linear::forward_multiplied(QuantizedRows x, std::int64_t rows, const float* m, QuantizedRows y) const {
  run(nullptr, dt::s8, rows, nullptr, dt::s8, {.multiplier = m, .x_q = x, .y_q = y});
}
void Linear::forward_normed(QuantizedRows x, std::int64_t rows, float* y, const LayerNormParams& norm) const {
  run(nullptr, dt::s8, rows, y, dt::f32, {.norm = &norm, .x_q = x});
}

void Linear::forward_normed(const float* x, std::int64_t rows, float* y, const LayerNormParams& norm) const {
  run(x, dt::f32, rows, y, dt::f32, {.norm = &norm});
}
void Linear::forward_normed(const std::uint16_t* x, std::int64_t rows, float* y, const LayerNormParams& norm) const {
  run(x, dt::bf16, rows, y, dt::f32, {.norm = &norm});
}

namespace {

// A layer's forward from x or from x's reduced copy, for each type of y the layer can write.
template <class Y>
void forward_from_copy(const Linear& layer, const float* x, const ReducedCopy& copy, std::int64_t rows, Y y) {
  if constexpr (!std::is_same_v<Y, std::uint16_t*>)
    if (layer.reads_s8() && copy.s8.values) return layer.forward(copy.s8, rows, y);
  if constexpr (!std::is_same_v<Y, QuantizedRows>)
    if (layer.reads_bf16() && copy.bf16) return layer.forward(static_cast<const std::uint16_t*>(copy.bf16), rows, y);
  layer.forward(x, rows, y);
}

}  // namespace

void Linear::forward(const float* x, const ReducedCopy& x_copy, std::int64_t rows, float* y) const {
  forward_from_copy(*this, x, x_copy, rows, y);
}
void Linear::forward(const float* x, const ReducedCopy& x_copy, std::int64_t rows, std::uint16_t* y) const {
  forward_from_copy(*this, x, x_copy, rows, y);
}
void Linear::forward(const float* x, const ReducedCopy& x_copy, std::int64_t rows, QuantizedRows y) const {
  forward_from_copy(*this, x, x_copy, rows, y);
}

void Linear::run(const void* x_data, dt x_type, std::int64_t rows, void* y_data, dt y_type, Then then) const {
  if ((x_type == dt::bf16 || y_type == dt::bf16) && !reads_bf16())
    runtime_error("a linear layer computing in {} given bf16 activations", type_label(kind_.weights));
  if ((x_type == dt::s8 || y_type == dt::s8) && !reads_s8())
    runtime_error("a linear layer computing in {} given int8 activations", type_label(kind_.weights));
  if (y_type != dt::f32 && kind_.accumulate) runtime_error("a residual linear layer cannot write {}", type_label(y_type));
  if (then.multiplier && (kind_.accumulate || kind_.eltwise != Eltwise::Identity))
    runtime_error("only an overwriting linear layer without activation multiplies its output");
  if (then.norm && !kind_.accumulate) runtime_error("only a residual linear layer normalises its output");
  if (rows <= 0) return;
  // f32 activations: as forward(const float*, ..., float*) has them.
  const auto* x = static_cast<const float*>(x_data);
  auto* y = static_cast<float*>(y_data);
  MatmulKind kind = kind_;
  kind.output = y_type;
  kind.multiply = then.multiplier != nullptr;
  if (row_blocks_) {
    {
      ProfiledOp op("matmul (row blocks)", kind_.k, kind_.n, type_label(kind_.weights));
      row_blocked_matmul(kind_, x, rows, static_cast<const float*>(weights_.get_data_handle()), weights_.get_desc(),
                         kind_.bias ? static_cast<const float*>(bias_.get_data_handle()) : nullptr, y);
    }
    // The blocks' primitives have no multiplier: its own pass, the same product.
    if (then.multiplier) multiply_in_place(y, then.multiplier, rows * kind_.n);
  } else if (kind_.weights == dt::s8) {
    run_int8(kind, x, rows, y, then);
    return;  // normalised with the epilogue
  } else {
    run_matmul(kind, x_data, x_type, rows, y_data, then.multiplier);
  }
  if (then.norm) {
    ProfiledOp op("layer norm");
    layer_norm(y, y, rows, kind_.n, then.norm->gamma, then.norm->beta, then.norm->eps, then.norm->copy);
  }
}

void Linear::run_matmul(const MatmulKind& kind, const void* x_data, dt x_type, std::int64_t rows, void* y_data,
                        const float* multiplier) const {
  auto& ctx = dnnl_context();
  SerialScope serial(rows * kind_.k * kind_.n < kMinParallelWork);
  void* input = const_cast<void*>(x_data);
  if (kind_.weights == dt::bf16 && x_type == dt::f32) {
    const auto elements = static_cast<std::size_t>(rows * kind_.k);
    input = reduced_input.reserve(elements / 2 + 1);
    ProfiledOp op("round inputs to bf16");
    round_to_bf16(static_cast<const float*>(x_data), elements, static_cast<std::uint16_t*>(input));
  }
  std::unordered_map<int, dnnl::memory> args{
      {DNNL_ARG_SRC, dnnl::memory({{rows, kind_.k}, kind_.weights, tag::ab}, ctx.engine, input)},
      {DNNL_ARG_WEIGHTS, weights_},
      {DNNL_ARG_DST, dnnl::memory({{rows, kind_.n}, kind.output, tag::ab}, ctx.engine, y_data)}};
  if (kind_.bias) args.emplace(DNNL_ARG_BIAS, bias_);
  if (multiplier)
    args.emplace(multiplier_arg(kind), dnnl::memory({{rows, kind_.n}, dt::f32, tag::ab}, ctx.engine, const_cast<float*>(multiplier)));
  ProfiledOp op("matmul", kind_.k, kind_.n, type_label(kind_.weights));
  matmul_primitive(kind, rows).execute(ctx.stream, args);
  ctx.stream.wait();
}

void Linear::run_int8(const MatmulKind& kind, const float* x, std::int64_t rows, float* y, Then then) const {
  auto& ctx = dnnl_context();
  SerialScope serial(rows * kind_.k * kind_.n < kMinParallelWork);
  const float* bias = kind_.bias ? static_cast<const float*>(bias_.get_data_handle()) : nullptr;
  const Int8Operands io{x, then.x_q, then.y_q.values ? nullptr : y, then.y_q, then.multiplier,
                        then.norm ? *then.norm : LayerNormParams{}};
  if (int8_row_tiles_pay(rows, omp_get_max_threads())) {
    ProfiledOp op("int8 matmul in row tiles", kind_.k, kind_.n);
    int8_row_tiled(kind, rows, weights_, column_scales_, bias, io);
    return;
  }
  const std::int8_t* q = then.x_q.values;
  const float* scales = then.x_q.scales;
  if (!q) {
    auto* quantised = reinterpret_cast<std::int8_t*>(reduced_input.reserve(static_cast<std::size_t>(rows * kind_.k) / 4 + 1));
    float* quantised_scales = row_scales.reserve(static_cast<std::size_t>(rows));
    ProfiledOp op("quantise inputs to int8");
    quantize_s8_rows(x, static_cast<std::size_t>(rows), static_cast<std::size_t>(kind_.k), quantised, quantised_scales);
    q = quantised, scales = quantised_scales;
  }
  // The product is scaled in place when it overwrites y in f32; else it goes to scratch, to be added to
  // y or quantised.
  float* product = io.y && !kind_.accumulate ? y : int8_product.reserve(static_cast<std::size_t>(rows * kind_.n));
  {
    ProfiledOp op("matmul", kind_.k, kind_.n, "int8");
    matmul_primitive(kind, rows).execute(ctx.stream, int8_matmul_arguments(rows, kind, q, weights_, column_scales_, product));
    ctx.stream.wait();
  }
  ProfiledOp op(then.norm ? "int8 row scales and bias, layer norm" : "int8 row scales and bias");
  int8_epilogue_rows(kind, rows, product, scales, bias, io);
}

}  // namespace bertkit::core
