#include "core/ops/linear.h"

#include "core/dnnl/context.h"
#include "core/dnnl/layout_names.h"
#include "core/error.h"
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

}  // namespace

void Linear::init(std::span<const float> bias, std::int64_t out, std::int64_t in, Eltwise activation,
                  LinearOutput output) {
  if (out <= 0 || in <= 0) runtime_error("linear layer [{}, {}] has no weights", out, in);
  if (!bias.empty() && static_cast<std::int64_t>(bias.size()) != out)
    runtime_error("linear layer with {} outputs given {} biases", out, bias.size());
  if (output == LinearOutput::Accumulate && activation != Eltwise::Identity)
    runtime_error("a residual linear layer cannot have an activation");
  kind_ = {in, out, !bias.empty(), dnnl_algorithm(activation), output == LinearOutput::Accumulate};
  if (kind_.bias) {
    bias_ = dnnl::memory({{1, out}, dt::f32, tag::ab}, dnnl_context().engine);
    std::copy(bias.begin(), bias.end(), static_cast<float*>(bias_.get_data_handle()));
  }
}

Linear::Linear(std::span<const float> weight, std::span<const float> bias, std::int64_t out, std::int64_t in,
               Eltwise activation, LinearOutput output) {
  init(bias, out, in, activation, output);
  if (static_cast<std::int64_t>(weight.size()) != out * in)
    runtime_error("linear layer [{}, {}] given {} weights", out, in, weight.size());
  auto& ctx = dnnl_context();
  SerialScope serial(in * out < kMinParallelWork);
  // PyTorch's [out, in] row-major is the [in, out] matrix oneDNN wants, in column-major ("ba") order.
  dnnl::memory source({{in, out}, dt::f32, tag::ba}, ctx.engine, const_cast<float*>(weight.data()));
  weights_ = dnnl::memory(packed_weights_desc(kind_), ctx.engine);
  dnnl::reorder(source, weights_).execute(ctx.stream, source, weights_);
  ctx.stream.wait();
}

std::optional<Linear> Linear::from_packed(const PackedWeights& packed, std::span<const float> bias, std::int64_t out,
                                          std::int64_t in, Eltwise activation, LinearOutput output) {
  Linear layer;
  layer.init(bias, out, in, activation, output);
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
  dnnl::memory src({{rows, kind_.k}, dt::f32, tag::ab}, ctx.engine, const_cast<float*>(x));
  dnnl::memory dst({{rows, kind_.n}, dt::f32, tag::ab}, ctx.engine, y);
  std::unordered_map<int, dnnl::memory> args{{DNNL_ARG_SRC, src}, {DNNL_ARG_WEIGHTS, weights_}, {DNNL_ARG_DST, dst}};
  if (kind_.bias) args.emplace(DNNL_ARG_BIAS, bias_);
  SerialScope serial(rows * kind_.k * kind_.n < kMinParallelWork);
  matmul_primitive(kind_, rows).execute(ctx.stream, args);
  ctx.stream.wait();
}

}  // namespace bertkit::core
