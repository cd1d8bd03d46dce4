#pragma once
// An f32 matmul whose result for a row depends on that row alone, on CPUs where oneDNN 2.6 runs f32
// matmuls on its jit sgemm (AVX2 without AVX-512). That sgemm computes rows in blocks of 6: rows in a
// last block of 1 to 3 take other kernels, and past 144 rows, or split among threads, the blocks move,
// so the same row summed in another batch (or with another thread count) differed in the last bits
// (where the blocks move depends on the weights' layout: past 72 rows for row-major weights).
// Here every call oneDNN sees has a multiple of 6 rows, at most 48, on one thread, and a fixed
// column block: the work is split into (row block, column block) items that run in parallel, and a
// last row block is padded with zero rows. AVX-512's brgemm matmul packs the weights into blocks of
// its own and keeps rows apart as it is; it does not come here.
#include "core/dnnl/matmul_cache.h"

#include <oneapi/dnnl/dnnl.hpp>

#include <cstdint>

namespace bertkit::core {

// Whether a layer of `kind` whose weights are in `layout` takes the row-blocked path on this CPU.
bool uses_row_blocks(const MatmulKind& kind, const dnnl::memory::desc& layout);

// y[rows, kind.n] (=, or += with kind.accumulate) x[rows, kind.k] · W + bias, then the activation.
// weights: [k, n], plain in `layout` (row- or column-major, as uses_row_blocks accepted), bias: [n] or
// nullptr.
void row_blocked_matmul(const MatmulKind& kind, const float* x, std::int64_t rows, const float* weights,
                        const dnnl::memory::desc& layout, const float* bias, float* y);

}  // namespace bertkit::core
