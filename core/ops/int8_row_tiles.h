#pragma once
// An int8 linear layer in tiles of rows, each tile on one thread from start to end: its rows quantised,
// multiplied (oneDNN's matmul, on that thread) and scaled (the epilogue, on that thread) while they are
// in that core's cache. Computed whole, the layer makes three passes over memory, each a parallel
// region of its own: quantise, matmul, and the epilogue, whose pass over the f32 product took 9% of
// bert-base's int8 time on 2 cores (16x128; a fifth on 16, where the tiles' own weight reads cost as
// much: int8_row_tiles_pay). The products are exact (s8·s8 summed in s32) and every other step works
// per element or per row, so the tiles write the same bytes as the whole layer does.
#include "core/dnnl/matmul_cache.h"
#include "core/ops/int8_epilogue.h"

#include <oneapi/dnnl/dnnl.hpp>

#include <cstdint>

namespace bertkit::core {

// Whether tiles pay for `rows` on `threads` threads: each thread reads all the weights for every tile it
// runs, so a tile must have rows enough to pay for that, the threads tiles enough to share, and the
// threads be few enough for those reads (up to 8: measured faster at 2 and 4, not at 16).
bool int8_row_tiles_pay(std::int64_t rows, int threads);

// The layer over `rows` rows of io (core/ops/int8_epilogue.h): y (=, or += with kind.accumulate)
// act(x_r quantised · W · column scales · row scale + bias), as Linear::forward computes an int8 layer.
// weights: the packed s8 matrix; column_scales: [1, n]; bias: [n] or null.
void int8_row_tiled(const MatmulKind& kind, std::int64_t rows, const dnnl::memory& weights,
                    const dnnl::memory& column_scales, const float* bias, const Int8Operands& io);

}  // namespace bertkit::core
