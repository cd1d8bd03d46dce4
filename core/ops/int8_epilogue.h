#pragma once
// int8's epilogue for a layer without activation, computed here, row by row, instead of by oneDNN's
// binary primitive: a row's s32 products, already times its columns' scales (the matmul's post-op), are
// scaled by the row's scale and the bias added, then written, added to y (the residual sum) or
// multiplied by a gate, and with a LayerNorm after the residual sum, the row is normalised while it is
// in cache: one parallel region and one pass over y where the binary primitive and the norm took two.
// The operations are oneDNN's, in its order, each rounded to f32 (no fused multiply-add: the file is
// compiled with -ffp-contract=off), so the bytes are those the binary primitive wrote.
#include "core/dnnl/matmul_cache.h"
#include "core/ops/layer_norm.h"

#include <cstdint>

namespace bertkit::core {

// Whether kind's epilogue is computed here (no activation); oneDNN's binary primitive does the others.
bool int8_epilogue_is_ours(const MatmulKind& kind);

// y[rows, n] = p·s_r + b (in place when y is product), += p·s_r + b (kind.accumulate), or
// (p·s_r + b) ⊙ m (kind.multiply; m [rows, n]), then each row normalised by `norm` when not null (an
// accumulating kind only). bias: [n] or null. Parallel over rows when the rows are many; one thread
// inside a parallel region.
void int8_epilogue_rows(const MatmulKind& kind, std::int64_t rows, const float* product, const float* row_scales,
                        const float* bias, const float* multiplier, float* y, const LayerNormParams* norm);

}  // namespace bertkit::core
