#pragma once
// Shape-keyed oneDNN matmul primitives. A linear layer's weights are packed once, into the layout
// oneDNN prefers for its (K, N, epilogue); that layout does not depend on the number of rows M, so the
// primitive for each M (and thread count) is made the first time that M is seen and shared by every
// layer of the same shape.
#include <oneapi/dnnl/dnnl.hpp>

#include <compare>
#include <cstdint>

namespace bertkit::core {

// y[M, n] = x[M, k] · W[k, n] (+ bias) then the epilogue fused by oneDNN.
//
// Weights f32: x is f32. bf16: x is bf16 (rounded by the caller). s8: x is u8 with a zero point given
// at run time, and the f32 result is multiplied by a per-column scale (x's scale times the weight
// column's) then has the bias added, both as binary post-ops taking their [1, n] rows at run time.
// (oneDNN 2.6's runtime output scales send int8 matmul to its slower gemm kernel, and its bias would be
// added before the scale.)
struct MatmulKind {
  std::int64_t k = 0;
  std::int64_t n = 0;
  bool bias = false;
  dnnl::memory::data_type weights = dnnl::memory::data_type::f32;
  dnnl::algorithm eltwise = dnnl::algorithm::undef;  // undef: no activation
  bool accumulate = false;  // y += result (a sum post-op): the residual connection, in place

  auto operator<=>(const MatmulKind&) const = default;
};

// The packed layout oneDNN picks for this kind's weights (format_tag::any).
dnnl::memory::desc packed_weights_desc(const MatmulKind& kind);

// The execute() argument ids of the s8 kind's run-time column scales and bias rows.
constexpr int kInt8ScalesArg = DNNL_ARG_ATTR_MULTIPLE_POST_OP(0) | DNNL_ARG_SRC_1;
constexpr int kInt8BiasArg = DNNL_ARG_ATTR_MULTIPLE_POST_OP(1) | DNNL_ARG_SRC_1;

// The primitive for `m` rows, created once per (kind, m, omp_get_max_threads()) and reused.
dnnl::matmul matmul_primitive(const MatmulKind& kind, std::int64_t m);

}  // namespace bertkit::core
