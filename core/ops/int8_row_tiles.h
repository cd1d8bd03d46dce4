#pragma once
// An int8 linear layer in tiles of rows, each tile on one thread from start to end: its rows quantised,
// multiplied (oneDNN's matmul, on that thread) and scaled (the epilogue, on that thread) while they are
// in that core's cache. Computed whole, the layer makes three passes over memory, each a parallel
// region of its own: quantise, matmul, and the epilogue, whose pass over the f32 product took a fifth
// of bert-base's int8 time on the 16-core Xeon (16x128, 16 threads). The products are exact (s8·s8
// summed in s32) and every other step works per element or per row, so the tiles write the same bytes
// as the whole layer does.
#include "core/dnnl/matmul_cache.h"

#include <oneapi/dnnl/dnnl.hpp>

#include <cstdint>

namespace bertkit::core {

// Whether `rows` are enough for tiles on `threads` threads: each thread reads all the weights for every
// tile it runs, so a tile must have rows enough to pay for that, and the threads tiles enough to share.
bool int8_row_tiles_pay(std::int64_t rows, int threads);

// y[rows, kind.n] (=, or += with kind.accumulate) act(x_r quantised · W · column scales · row scale + bias),
// as Linear::forward computes an int8 layer. weights: the packed s8 matrix; column_scales: [1, n];
// bias: [1, n], or a null memory when kind.bias is false.
void int8_row_tiled(const MatmulKind& kind, const float* x, std::int64_t rows, const dnnl::memory& weights,
                    const dnnl::memory& column_scales, const dnnl::memory& bias, float* y);

}  // namespace bertkit::core
