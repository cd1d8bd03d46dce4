#include "core/dnnl/matmul_cache.h"

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

dnnl::primitive_attr attributes(const MatmulKind& kind) {
  dnnl::post_ops ops;
  dnnl::primitive_attr attr;
  if (int8(kind)) {
    attr.set_zero_points(DNNL_ARG_SRC, 0, {DNNL_RUNTIME_S32_VAL});
    dnnl::memory::desc row({1, kind.n}, dt::f32, tag::ab);
    ops.append_binary(dnnl::algorithm::binary_mul, row);
    if (kind.bias) ops.append_binary(dnnl::algorithm::binary_add, row);
  }
  if (kind.accumulate) ops.append_sum(1.0f);
  if (kind.eltwise != dnnl::algorithm::undef) {
    float alpha = kind.eltwise == dnnl::algorithm::eltwise_swish ? 1.0f : 0.0f;  // swish(1) = silu
    ops.append_eltwise(1.0f, kind.eltwise, alpha, 0.0f);
  }
  attr.set_post_ops(ops);
  return attr;
}

dnnl::matmul::primitive_desc make_desc(const MatmulKind& kind, std::int64_t m, const dnnl::memory::desc& weights) {
  const dt source_type = int8(kind) ? dt::u8 : kind.weights;
  dnnl::memory::desc src({m, kind.k}, source_type, tag::ab);
  dnnl::memory::desc dst({m, kind.n}, dt::f32, tag::ab);
  auto& engine = dnnl_context().engine;
  if (kind.bias && !int8(kind)) {
    dnnl::memory::desc bias({1, kind.n}, dt::f32, tag::ab);
    return {dnnl::matmul::desc(src, weights, bias, dst), attributes(kind), engine};
  }
  return {dnnl::matmul::desc(src, weights, dst), attributes(kind), engine};
}

struct Cache {
  std::mutex mutex;
  std::map<MatmulKind, dnnl::memory::desc> layouts;
  std::map<std::tuple<MatmulKind, std::int64_t, int>, dnnl::matmul> primitives;
};

Cache& cache() {
  static Cache instance;
  return instance;
}

dnnl::memory::desc layout_locked(Cache& c, const MatmulKind& kind) {
  auto it = c.layouts.find(kind);
  if (it == c.layouts.end()) {
    dnnl::memory::desc any({kind.k, kind.n}, kind.weights, tag::any);
    it = c.layouts.emplace(kind, make_desc(kind, kLayoutRows, any).weights_desc()).first;
  }
  return it->second;
}

}  // namespace

dnnl::memory::desc packed_weights_desc(const MatmulKind& kind) {
  Cache& c = cache();
  std::lock_guard lock(c.mutex);
  return layout_locked(c, kind);
}

dnnl::matmul matmul_primitive(const MatmulKind& kind, std::int64_t m) {
  Cache& c = cache();
  std::lock_guard lock(c.mutex);
  auto key = std::make_tuple(kind, m, omp_get_max_threads());
  auto it = c.primitives.find(key);
  if (it != c.primitives.end()) return it->second;
  if (c.primitives.size() >= kMaxPrimitives) c.primitives.clear();
  // The weights are already packed: ask for exactly that layout. Should an implementation for this M
  // not support it, oneDNN still returns a (slower) one that does.
  dnnl::matmul primitive(make_desc(kind, m, layout_locked(c, kind)));
  c.primitives.emplace(key, primitive);
  return primitive;
}

}  // namespace bertkit::core
