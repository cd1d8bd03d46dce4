#include "core/ops/linear.h"

#include "core/dnnl/context.h"
#include "core/dnnl/layout_names.h"
#include "core/error.h"
#include "core/ops/buffer.h"
#include "core/ops/reduced_activations.h"
#include "core/ops/threading.h"

#include <algorithm>
#include <unordered_map>

namespace bertkit::core {
namespace {

using dt = dnnl::memory::data_type;
using tag = dnnl::memory::format_tag;

dnnl::algorithm dnnl_algorithm(Eltwise f) {
  switch (f) {
    case Eltwise::Identity: return dnnl::algorithm::undef;
    case Eltwise::Gelu: return dnnl::algorithm::eltwise_gelu_erf;
    case Eltwise::GeluTanh: return dnnl::algorithm::eltwise_gelu_tanh;
    case Eltwise::Relu: return dnnl::algorithm::eltwise_relu;
    case Eltwise::Silu: return dnnl::algorithm::eltwise_swish;
    case Eltwise::Tanh: return dnnl::algorithm::eltwise_tanh;
  }
  return dnnl::algorithm::undef;
}

dt dnnl_type(DType type) {
  switch (type) {
    case DType::F32: return dt::f32;
    case DType::BF16: return dt::bf16;
    case DType::I8: return dt::s8;
    default: runtime_error("a linear layer cannot compute in {}", dtype_name(type));
  }
}

// The matmul's input in its compute type, rewritten by every call (one thread runs the encoder).
thread_local FloatBuffer reduced_input;

}  // namespace

void Linear::init(std::span<const float> bias, std::int64_t out, std::int64_t in, Eltwise activation,
                  LinearOutput output, dt weights_type) {
  if (out <= 0 || in <= 0) runtime_error("linear layer [{}, {}] has no weights", out, in);
  if (!bias.empty() && static_cast<std::int64_t>(bias.size()) != out)
    runtime_error("linear layer with {} outputs given {} biases", out, bias.size());
  if (output == LinearOutput::Accumulate && activation != Eltwise::Identity)
    runtime_error("a residual linear layer cannot have an activation");
  kind_ = {in, out, !bias.empty(), weights_type, dnnl_algorithm(activation), output == LinearOutput::Accumulate};
  if (kind_.bias) {
    bias_ = dnnl::memory({{1, out}, dt::f32, tag::ab}, dnnl_context().engine);
    std::copy(bias.begin(), bias.end(), static_cast<float*>(bias_.get_data_handle()));
  }
}

Linear::Linear(std::span<const float> weight, std::span<const float> bias, std::int64_t out, std::int64_t in,
               Eltwise activation, LinearOutput output)
    : Linear(LinearWeight{DType::F32, weight.data(), {}}, bias, out, in, activation, output) {
  if (static_cast<std::int64_t>(weight.size()) != out * in)
    runtime_error("linear layer [{}, {}] given {} weights", out, in, weight.size());
}

Linear::Linear(const LinearWeight& weight, std::span<const float> bias, std::int64_t out, std::int64_t in,
               Eltwise activation, LinearOutput output) {
  const DType type = weight.dtype == DType::F16 ? DType::F32 : weight.dtype;  // f16 is computed in f32
  init(bias, out, in, activation, output, dnnl_type(type));
  std::vector<float> widened;
  const void* data = weight.data;
  if (weight.dtype == DType::F16) {
    widened = to_f32(TensorView{DType::F16, {out, in}, static_cast<const std::byte*>(data), static_cast<std::size_t>(out * in * 2)});
    data = widened.data();
  }
  if (type == DType::I8) {
    if (static_cast<std::int64_t>(weight.scales.size()) != out)
      runtime_error("int8 linear layer with {} outputs given {} scales", out, weight.scales.size());
    weight_scales_.assign(weight.scales.begin(), weight.scales.end());
    column_scales_.resize(static_cast<std::size_t>(out));
  }

  auto& ctx = dnnl_context();
  SerialScope serial(in * out < kMinParallelWork);
  // PyTorch's [out, in] row-major is the [in, out] matrix oneDNN wants, in column-major ("ba") order.
  dnnl::memory source({{in, out}, kind_.weights, tag::ba}, ctx.engine, const_cast<void*>(data));
  weights_ = dnnl::memory(packed_weights_desc(kind_), ctx.engine);
  dnnl::reorder(source, weights_).execute(ctx.stream, source, weights_);
  ctx.stream.wait();
}

std::optional<Linear> Linear::from_packed(const PackedWeights& packed, std::span<const float> bias, std::int64_t out,
                                          std::int64_t in, Eltwise activation, LinearOutput output) {
  Linear layer;
  layer.init(bias, out, in, activation, output, dt::f32);
  const dnnl::memory::desc wanted = packed_weights_desc(layer.kind_);
  const auto stored = layout_from_name({in, out}, packed.layout);
  if (!stored || *stored != wanted || packed.bytes.size() != wanted.get_size()) return std::nullopt;
  layer.weights_ = dnnl::memory(wanted, dnnl_context().engine, const_cast<std::byte*>(packed.bytes.data()));
  return layer;
}

std::optional<std::string> Linear::packed_layout() const { return layout_name(weights_.get_desc()); }

std::span<const std::byte> Linear::packed_bytes() const {
  return {static_cast<const std::byte*>(weights_.get_data_handle()), weights_.get_desc().get_size()};
}

void Linear::forward(const float* x, std::int64_t rows, float* y) const {
  if (rows <= 0) return;
  auto& ctx = dnnl_context();
  SerialScope serial(rows * kind_.k * kind_.n < kMinParallelWork);
  const auto elements = static_cast<std::size_t>(rows * kind_.k);
  void* input = const_cast<float*>(x);
  std::int32_t zero_point = 0;
  if (kind_.weights != dt::f32) input = reduced_input.reserve(elements / 2 + 1);  // bf16 or u8: at most 2 bytes each
  if (kind_.weights == dt::bf16) round_to_bf16(x, elements, static_cast<std::uint16_t*>(input));
  if (kind_.weights == dt::s8) {
    U8Quantization q = quantize_u8(x, elements, static_cast<std::uint8_t*>(input));
    zero_point = q.zero_point;
    for (std::size_t j = 0; j < weight_scales_.size(); ++j) column_scales_[j] = q.scale * weight_scales_[j];
  }
  const dt source_type = kind_.weights == dt::s8 ? dt::u8 : kind_.weights;
  dnnl::memory src({{rows, kind_.k}, source_type, tag::ab}, ctx.engine, input);
  dnnl::memory dst({{rows, kind_.n}, dt::f32, tag::ab}, ctx.engine, y);
  std::unordered_map<int, dnnl::memory> args{{DNNL_ARG_SRC, src}, {DNNL_ARG_WEIGHTS, weights_}, {DNNL_ARG_DST, dst}};
  if (kind_.weights == dt::s8) {
    args.emplace(DNNL_ARG_ATTR_ZERO_POINTS | DNNL_ARG_SRC,
                 dnnl::memory({{1}, dt::s32, tag::x}, ctx.engine, &zero_point));
    args.emplace(kInt8ScalesArg, dnnl::memory({{1, kind_.n}, dt::f32, tag::ab}, ctx.engine, column_scales_.data()));
    if (kind_.bias) args.emplace(kInt8BiasArg, bias_);
  } else if (kind_.bias) {
    args.emplace(DNNL_ARG_BIAS, bias_);
  }
  matmul_primitive(kind_, rows).execute(ctx.stream, args);
  ctx.stream.wait();
}

}  // namespace bertkit::core
