#pragma once
// Shape-keyed oneDNN matmul primitives. A linear layer's weights are packed once, into the layout
// oneDNN prefers for its (K, N, epilogue); that layout does not depend on the number of rows M, so the
// primitive for each M (and thread count) is made the first time that M is seen and shared by every
// layer of the same shape.
#include "core/ops/eltwise.h"

#include <oneapi/dnnl/dnnl.hpp>

#include <compare>
#include <cstdint>
#include <unordered_map>

namespace bertkit::core {

// y[M, n] = x[M, k] · W[k, n] (+ bias) then the epilogue fused by oneDNN.
//
// Weights f32: x is f32. bf16: x is bf16 (rounded by the caller). s8: x is s8, quantised symmetrically
// per row, and the result is the s32 sum times the weight column's scale (a binary post-op taking the
// [1, n] scales at run time); int8's epilogue (core/ops/int8_epilogue.h) then scales each row, adds the
// bias and applies the rest.
struct MatmulKind {
  std::int64_t k = 0;
  std::int64_t n = 0;
  bool bias = false;
  dnnl::memory::data_type weights = dnnl::memory::data_type::f32;
  Eltwise eltwise = Eltwise::Identity;  // the activation (oneDNN's post-op, or int8's epilogue's)
  bool accumulate = false;  // y += result (a sum post-op): the residual connection, in place
  // y's type: f32, or bf16 (an Overwrite bf16 layer's, for a next layer that reads bf16: rounded to
  // nearest even, as round_to_bf16 rounds).
  dnnl::memory::data_type output = dnnl::memory::data_type::f32;
  // y = result ⊙ m, element by element, m [M, n] f32 given at run time (multiplier_arg): a gated
  // feed-forward's product, computed as the matmul (int8: its epilogue) writes y, after all else.
  bool multiply = false;

  auto operator<=>(const MatmulKind&) const = default;
};

// The packed layout oneDNN picks for this kind's weights (format_tag::any).
dnnl::memory::desc packed_weights_desc(const MatmulKind& kind);

// The execute() argument id of the s8 matmul's column scales.
constexpr int kInt8ColumnScalesArg = DNNL_ARG_ATTR_MULTIPLE_POST_OP(0) | DNNL_ARG_SRC_1;

// The execute() argument id of the multiplier of an f32 or bf16 kind with `multiply`: its matmul's last
// post-op.
int multiplier_arg(const MatmulKind& kind);

// The primitive for `m` rows, created once per (kind, m, omp_get_max_threads()) and reused.
dnnl::matmul matmul_primitive(const MatmulKind& kind, std::int64_t m);

// One block of core/ops/linear_row_blocks.h's matmul: its primitive, and the scratchpad it must be
// handed (blocks run on several threads at once, each with a scratchpad of its own).
struct BlockPrimitive {
  dnnl::matmul matmul;
  dnnl::memory::desc scratchpad;
};

// The block primitive for `m` rows of weights `weights` (plain f32, a [k, n] block strided within the
// whole matrix; or a whole packed matrix, core/ops/int8_row_tiles.h), writing rows `ldc` floats apart,
// made once per shape. The shapes are few (multiples of 6 up to 48 rows, two column widths per layer;
// two tile heights per layer): a caller fetches those it needs before running its blocks, so the
// blocks themselves take no lock.
BlockPrimitive matmul_block_primitive(const MatmulKind& kind, std::int64_t m, std::int64_t ldc,
                                      const dnnl::memory::desc& weights);

// The arguments of an s8 layer's matmul over m rows, the same for a whole layer and for a tile of its
// rows: q [m, k] the rows quantised, `product` [m, n] what the matmul writes (the s32 sums scaled by the
// columns' scales). A caller adds a scratchpad.
std::unordered_map<int, dnnl::memory> int8_matmul_arguments(std::int64_t m, const MatmulKind& kind, const std::int8_t* q,
                                                            const dnnl::memory& weights,
                                                            const dnnl::memory& column_scales, float* product);

}  // namespace bertkit::core
