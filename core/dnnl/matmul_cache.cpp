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

// The residual sum and the activation, the last post-ops of the f32/bf16 matmul or of int8's epilogue.
void append_sum_and_activation(const MatmulKind& kind, dnnl::post_ops& ops) {
  if (kind.accumulate) ops.append_sum(1.0f);
  if (kind.eltwise != dnnl::algorithm::undef) {
    float alpha = kind.eltwise == dnnl::algorithm::eltwise_swish ? 1.0f : 0.0f;  // swish(1) = silu
    dnnl_compat::append_eltwise(ops, kind.eltwise, alpha, 0.0f);
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

// oneDNN 2.6's matmul cannot take per-row scales as a fast post-op (a [m, 1] binary one sends it to its
// reference kernel; posed in 3D, it repacks the weights at every call), but its binary primitive can.
dnnl::binary::primitive_desc epilogue_desc(const MatmulKind& kind, std::int64_t m, dnnl::scratchpad_mode scratchpad) {
  dnnl::post_ops ops;
  if (kind.bias) ops.append_binary(dnnl::algorithm::binary_add, dnnl::memory::desc({1, kind.n}, dt::f32, tag::ab));
  append_sum_and_activation(kind, ops);
  append_multiplier(kind, m, ops);
  dnnl::primitive_attr attr;
  attr.set_post_ops(ops);
  attr.set_scratchpad_mode(scratchpad);
  dnnl::memory::desc rows({m, kind.n}, dt::f32, tag::ab);
  return dnnl_compat::binary_desc(dnnl::algorithm::binary_mul, rows, dnnl::memory::desc({m, 1}, dt::f32, tag::ab), rows,
                                  attr);
}

struct Cache {
  std::mutex mutex;
  std::map<MatmulKind, dnnl::memory::desc> layouts;
  std::map<std::tuple<MatmulKind, std::int64_t, int>, dnnl::matmul> primitives;
  std::map<std::tuple<MatmulKind, std::int64_t, int>, dnnl::binary> epilogues;
  std::map<std::tuple<MatmulKind, std::int64_t>, BlockEpilogue> block_epilogues;
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
  // The post-ops before it: int8's epilogue adds the bias as one; the residual sum and the activation.
  const int before = (int8(kind) && kind.bias ? 1 : 0) + (kind.accumulate ? 1 : 0) +
                     (kind.eltwise != dnnl::algorithm::undef ? 1 : 0);
  return DNNL_ARG_ATTR_MULTIPLE_POST_OP(before) | DNNL_ARG_SRC_1;
}

dnnl::matmul matmul_primitive(const MatmulKind& kind, std::int64_t m) {
  Cache& c = cache();
  std::lock_guard lock(c.mutex);
  // The weights are already packed: ask for exactly that layout. Should an implementation for this M
  // not support it, oneDNN still returns a (slower) one that does.
  return cached_locked(c.primitives, kind, m, [&] { return dnnl::matmul(make_desc(kind, m, layout_locked(c, kind), kind.n)); });
}

BlockPrimitive matmul_block_primitive(const MatmulKind& kind, std::int64_t m, std::int64_t ldc,
                                      const dnnl::memory::desc& weights) {
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

dnnl::binary int8_epilogue(const MatmulKind& kind, std::int64_t m) {
  Cache& c = cache();
  std::lock_guard lock(c.mutex);
  return cached_locked(c.epilogues, kind, m,
                       [&] { return dnnl::binary(epilogue_desc(kind, m, dnnl::scratchpad_mode::library)); });
}

Int8Arguments int8_arguments(const MatmulKind& kind, std::int64_t m, const std::int8_t* q, const float* scales,
                             const dnnl::memory& weights, const dnnl::memory& column_scales, const dnnl::memory& bias,
                             float* product, float* y, const float* multiplier) {
  const auto& engine = dnnl_context().engine;
  auto rows = [&](std::int64_t columns, dt type, const void* data) {
    return dnnl::memory({{m, columns}, type, tag::ab}, engine, const_cast<void*>(data));
  };
  Int8Arguments a{{{DNNL_ARG_SRC, rows(kind.k, dt::s8, q)},
                   {DNNL_ARG_WEIGHTS, weights},
                   {DNNL_ARG_DST, rows(kind.n, dt::f32, product)},
                   {kInt8ColumnScalesArg, column_scales}},
                  {{DNNL_ARG_SRC_0, rows(kind.n, dt::f32, product)},
                   {DNNL_ARG_SRC_1, rows(1, dt::f32, scales)},
                   {DNNL_ARG_DST, rows(kind.n, dt::f32, y)}}};
  if (kind.bias) a.epilogue.emplace(kInt8BiasArg, bias);
  if (kind.multiply) a.epilogue.emplace(multiplier_arg(kind), rows(kind.n, dt::f32, multiplier));
  return a;
}

BlockEpilogue int8_block_epilogue(const MatmulKind& kind, std::int64_t m) {
  Cache& c = cache();
  std::lock_guard lock(c.mutex);
  auto key = std::make_tuple(kind, m);
  if (auto it = c.block_epilogues.find(key); it != c.block_epilogues.end()) return it->second;
  const auto desc = epilogue_desc(kind, m, dnnl::scratchpad_mode::user);
  return c.block_epilogues.emplace(key, BlockEpilogue{dnnl::binary(desc), desc.scratchpad_desc()}).first->second;
}

}  // namespace bertkit::core
