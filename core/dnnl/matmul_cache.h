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
struct MatmulKind {
  std::int64_t k = 0;
  std::int64_t n = 0;
  bool bias = false;
  dnnl::algorithm eltwise = dnnl::algorithm::undef;  // undef: no activation
  bool accumulate = false;  // y += result (a sum post-op): the residual connection, in place

  auto operator<=>(const MatmulKind&) const = default;
};

// The packed layout oneDNN picks for this kind's weights (format_tag::any).
dnnl::memory::desc packed_weights_desc(const MatmulKind& kind);

// The primitive for `m` rows, created once per (kind, m, omp_get_max_threads()) and reused.
dnnl::matmul matmul_primitive(const MatmulKind& kind, std::int64_t m);

}  // namespace bertkit::core
