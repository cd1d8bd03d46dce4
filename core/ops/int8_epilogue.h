#pragma once
// int8's epilogue, row by row: a row's s32 products, already times its columns' scales (the matmul's
// post-op), are scaled by the row's scale and the bias added, then written (and activated), added to y
// (the residual sum) or multiplied by a gate; with a LayerNorm after the residual sum, the row is
// normalised while it is in cache. oneDNN 2.6's fast int8 matmul cannot take per-row scales (a [m, 1]
// binary post-op sends it to its reference kernel; posed in 3D, it repacks the weights at every call),
// so this pass follows it: one parallel region and one pass over y, where oneDNN's binary primitive
// and the norm took two. The scaling, bias and sums are each rounded to f32 in oneDNN's order (no fused
// multiply-add: the file is compiled with -ffp-contract=off); the activations are core/ops/activations.h's.
#include "core/dnnl/matmul_cache.h"
#include "core/ops/layer_norm.h"
#include "core/ops/reduced_activations.h"

#include <cstdint>

namespace bertkit::core {

// An int8 layer call's operands: x in f32 or already quantised, y in f32 or quantised for the next int8
// layer, and what the call does after the epilogue.
struct Int8Operands {
  const float* x = nullptr;           // [rows, k], unless x_q.values
  QuantizedRows x_q;                  // [rows, k] already quantised (then x is null)
  float* y = nullptr;                 // [rows, n], unless y_q.values
  QuantizedRows y_q;                  // [rows, n]: y quantised (an Overwrite kind only)
  const float* multiplier = nullptr;  // [rows, n] with kind.multiply
  LayerNormParams norm;               // applied to y's rows where norm.gamma (an Accumulate kind only)

  // The same operands from row r on, for a layer of k inputs and n outputs.
  Int8Operands from_row(std::int64_t r, std::int64_t k, std::int64_t n) const;
};

// y[rows, n] = act(p·s_r + b), += p·s_r + b (kind.accumulate), or (p·s_r + b) ⊙ m (kind.multiply), into
// io.y (in place when io.y is product) or io.y_q (computed in product's row, then quantised), then each
// row normalised by io.norm. bias: [n] or null. Parallel over rows when the rows are many; one thread
// inside a parallel region.
void int8_epilogue_rows(const MatmulKind& kind, std::int64_t rows, float* product, const float* row_scales,
                        const float* bias, const Int8Operands& io);

}  // namespace bertkit::core
