#include "core/dnnl/matmul_cache.h"

#include "core/dnnl/api_compat.h"
#include "core/dnnl/context.h"

#include <omp.h>

#include <map>
#include <mutex>
#include <tuple>

namespace bertkit::core {
namespace {

using dt = dnnl::memory::data_type;
using tag = dnnl::memory::format_tag;

// Any M gives the same weight layout; this one is only used to ask oneDNN for it.
constexpr std::int64_t kLayoutRows = 256;
// Distinct row counts are unbounded over a long run; past this many primitives the cache starts over.
constexpr std::size_t kMaxPrimitives = 4096;

bool int8(const MatmulKind& kind) { return kind.weights == dt::s8; }

// The kind a primitive is made and cached for: an s8 matmul's epilogue is not oneDNN's, so its layers
// differ only by shape.
MatmulKind primitive_kind(const MatmulKind& kind) { return int8(kind) ? MatmulKind{kind.k, kind.n, false, dt::s8} : kind; }

// oneDNN's eltwise algorithm for an activation.
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

// The residual sum and the activation, the last post-ops of the f32/bf16 matmul.
void append_sum_and_activation(const MatmulKind& kind, dnnl::post_ops& ops) {
  if (kind.accumulate) ops.append_sum(1.0f);
  if (kind.eltwise != Eltwise::Identity) {
    float alpha = kind.eltwise == Eltwise::Silu ? 1.0f : 0.0f;  // swish(1) = silu
    dnnl_compat::append_eltwise(ops, dnnl_algorithm(kind.eltwise), alpha, 0.0f);
  }
}

// The multiplier of a kind with `multiply`, the last post-op.
void append_multiplier(const MatmulKind& kind, std::int64_t m, dnnl::post_ops& ops) {
  if (kind.multiply) ops.append_binary(dnnl::algorithm::binary_mul, dnnl::memory::desc({m, kind.n}, dt::f32, tag::ab));
}

dnnl::primitive_attr attributes(const MatmulKind& kind, std::int64_t m) {
  dnnl::post_ops ops;
  if (int8(kind)) {
    ops.append_binary(dnnl::algorithm::binary_mul, dnnl::memory::desc({1, kind.n}, dt::f32, tag::ab));  // the rest is the epilogue's
  } else {
    append_sum_and_activation(kind, ops);
    append_multiplier(kind, m, ops);
  }
  dnnl::primitive_attr attr;
  attr.set_post_ops(ops);
  return attr;
}

// ldc: the row stride of the output (kind.n: rows end to end).
dnnl::matmul::primitive_desc make_desc(const MatmulKind& kind, std::int64_t m, const dnnl::memory::desc& weights,
                                       std::int64_t ldc) {
  const dt source_type = int8(kind) ? dt::s8 : kind.weights;
  dnnl::memory::desc src({m, kind.k}, source_type, tag::ab);
  dnnl::memory::desc dst({m, kind.n}, kind.output, dnnl::memory::dims{ldc, 1});
  const dnnl::memory::desc bias({1, kind.n}, dt::f32, tag::ab);
  return dnnl_compat::matmul_desc(src, weights, kind.bias && !int8(kind) ? &bias : nullptr, dst, attributes(kind, m));
}

struct Cache {
  std::mutex mutex;
  std::map<MatmulKind, dnnl::memory::desc> layouts;
  std::map<std::tuple<MatmulKind, std::int64_t, int>, dnnl::matmul> primitives;
  // Keyed by (kind, m, ldc, the weights' two strides).
  std::map<std::tuple<MatmulKind, std::int64_t, std::int64_t, std::int64_t, std::int64_t>, BlockPrimitive> blocks;
};

Cache& cache() {
  static Cache instance;
  return instance;
}

// The weights' layout does not depend on y's type or on a multiplier: the plain f32 output's is asked
// for, whatever kind.output and kind.multiply.
dnnl::memory::desc layout_locked(Cache& c, const MatmulKind& kind) {
  MatmulKind f32_output = kind;
  f32_output.output = dt::f32;
  f32_output.multiply = false;
  auto it = c.layouts.find(f32_output);
  if (it == c.layouts.end()) {
    dnnl::memory::desc any({kind.k, kind.n}, kind.weights, tag::any);
    it = c.layouts.emplace(f32_output, make_desc(f32_output, kLayoutRows, any, kind.n).weights_desc()).first;
  }
  return it->second;
}

// The primitive for (kind, m, this thread count), made by `make` the first time.
template <typename Primitives, typename Make>
typename Primitives::mapped_type cached_locked(Primitives& primitives, const MatmulKind& kind, std::int64_t m, Make&& make) {
  auto key = std::make_tuple(kind, m, omp_get_max_threads());
  if (auto it = primitives.find(key); it != primitives.end()) return it->second;
  if (primitives.size() >= kMaxPrimitives) primitives.clear();
  return primitives.emplace(key, make()).first->second;
}

}  // namespace

dnnl::memory::desc packed_weights_desc(const MatmulKind& kind) {
  Cache& c = cache();
  std::lock_guard lock(c.mutex);
  return layout_locked(c, kind);
}

int multiplier_arg(const MatmulKind& kind) {
  // The post-ops before it: the residual sum and the activation.
  const int before = (kind.accumulate ? 1 : 0) + (kind.eltwise != Eltwise::Identity ? 1 : 0);
  return DNNL_ARG_ATTR_MULTIPLE_POST_OP(before) | DNNL_ARG_SRC_1;
}

dnnl::matmul matmul_primitive(const MatmulKind& given, std::int64_t m) {
  const MatmulKind kind = primitive_kind(given);
  Cache& c = cache();
  std::lock_guard lock(c.mutex);
  // The weights are already packed: ask for exactly that layout. Should an implementation for this M
  // not support it, oneDNN still returns a (slower) one that does.
  return cached_locked(c.primitives, kind, m, [&] { return dnnl::matmul(make_desc(kind, m, layout_locked(c, kind), kind.n)); });
}

BlockPrimitive matmul_block_primitive(const MatmulKind& given, std::int64_t m, std::int64_t ldc,
                                      const dnnl::memory::desc& weights) {
  const MatmulKind kind = primitive_kind(given);
  Cache& c = cache();
  std::lock_guard lock(c.mutex);
  const auto strides = dnnl_compat::matrix_strides(weights);
  auto key = std::make_tuple(kind, m, ldc, strides[0], strides[1]);
  if (auto it = c.blocks.find(key); it != c.blocks.end()) return it->second;
  // Blocks run in parallel, each on one thread: each brings its own scratchpad (core/ops/linear_row_blocks.cpp).
  dnnl::matmul::primitive_desc desc = make_desc(kind, m, weights, ldc);
  dnnl::primitive_attr attr = desc.get_primitive_attr();
  attr.set_scratchpad_mode(dnnl::scratchpad_mode::user);
  const dnnl::memory::desc dst({m, kind.n}, dnnl::memory::data_type::f32, dnnl::memory::dims{ldc, 1});
  const dnnl::memory::desc src({m, kind.k}, kind.weights, tag::ab);
  const dnnl::memory::desc bias({1, kind.n}, dt::f32, tag::ab);
  dnnl::matmul::primitive_desc user =
      dnnl_compat::matmul_desc(src, weights, kind.bias && !int8(kind) ? &bias : nullptr, dst, attr);
  return c.blocks.emplace(key, BlockPrimitive{dnnl::matmul(user), user.scratchpad_desc()}).first->second;
}

std::unordered_map<int, dnnl::memory> int8_matmul_arguments(std::int64_t m, const MatmulKind& kind, const std::int8_t* q,
                                                            const dnnl::memory& weights,
                                                            const dnnl::memory& column_scales, float* product) {
  const auto& engine = dnnl_context().engine;
  return {{DNNL_ARG_SRC, dnnl::memory({{m, kind.k}, dt::s8, tag::ab}, engine, const_cast<std::int8_t*>(q))},
          {DNNL_ARG_WEIGHTS, weights},
          {DNNL_ARG_DST, dnnl::memory({{m, kind.n}, dt::f32, tag::ab}, engine, product)},
          {kInt8ColumnScalesArg, column_scales}};
}

}  // namespace bertkit::core
