#include "core/ops/int8_row_tiles.h"

#include "core/dnnl/context.h"
#include "core/error.h"
#include "core/ops/buffer.h"
#include "core/ops/int8_epilogue.h"
#include "core/ops/reduced_activations.h"
#include "core/ops/threading.h"

#include <omp.h>

#include <algorithm>
#include <atomic>

namespace bertkit::core {
namespace {

// Rows of a tile: at least kMinTileRows (int8_row_tiles_pay), so that a tile's arithmetic pays for
// reading the weights again, and at most kMaxTileRows, so that its f32 product (128 x 3072 floats:
// 1.5 MB for bert-base's feed-forward) stays in a core's L2.
constexpr std::int64_t kMinTileRows = 64;
constexpr std::int64_t kMaxTileRows = 128;
// Every thread reads all the weights for its tiles; past a few threads that costs more than the
// epilogue's pass saved. On the 16-core Xeon (AMX, bert-base int8, interleaved with the whole-layer
// path): 4 threads 1.07-1.09x, 16 threads 0.93-1.10x in two runs, and its profile at 16x128 had the
// tiles' 61.5 ms against 58.8 ms for matmul, epilogue and quantisation; on 2 cores the tiles are faster.
constexpr int kMaxTileThreads = 8;

// One thread's tile buffers: its rows in s8, their scales, a residual layer's product, and the
// primitives' scratchpads.
thread_local AlignedBuffer<std::int8_t> tile_input;
thread_local FloatBuffer tile_scales;
thread_local FloatBuffer tile_product;
thread_local AlignedBuffer<std::byte> tile_scratchpad;


}  // namespace

bool int8_row_tiles_pay(std::int64_t rows, int threads) {
  return threads > 1 && threads <= kMaxTileThreads && rows >= kMinTileRows * threads;
}

void int8_row_tiled(const MatmulKind& kind, std::int64_t rows, const dnnl::memory& weights,
                    const dnnl::memory& column_scales, const float* bias, const Int8Operands& io) {
  // Tiles of equal height, as many as a multiple of the threads: 3 tiles on 2 threads left one idle a
  // third of the time (1x384 on 2 cores: 20% slower than the whole layer).
  const std::int64_t threads = omp_get_max_threads();
  const std::int64_t tiles_per_thread = (rows + threads * kMaxTileRows - 1) / (threads * kMaxTileRows);
  const std::int64_t tile_rows = (rows + threads * tiles_per_thread - 1) / (threads * tiles_per_thread);
  const std::int64_t tiles = (rows + tile_rows - 1) / tile_rows;
  const std::int64_t last_rows = rows - (tiles - 1) * tile_rows;
  // Fetched here, before the tiles: two heights at most, and the tiles take no lock.
  const BlockPrimitive full = matmul_block_primitive(kind, tile_rows, kind.n, weights.get_desc());
  const BlockPrimitive last = matmul_block_primitive(kind, last_rows, kind.n, weights.get_desc());
  std::atomic<bool> failed{false};
#pragma omp parallel for schedule(dynamic)
  for (std::int64_t t = 0; t < tiles; ++t) {
    const ThreadLimit one(1);  // the primitives run on this thread alone
    const std::int64_t r0 = t * tile_rows, m = t + 1 == tiles ? last_rows : tile_rows;
    const BlockPrimitive& p = t + 1 == tiles ? last : full;
    try {
      const Int8Operands tile = io.from_row(r0, kind.k, kind.n);
      const std::int8_t* q = tile.x_q.values;
      const float* scales = tile.x_q.scales;
      if (!q) {
        std::int8_t* quantised = tile_input.reserve(static_cast<std::size_t>(m * kind.k));
        float* quantised_scales = tile_scales.reserve(static_cast<std::size_t>(m));
        quantize_s8_rows(tile.x, static_cast<std::size_t>(m), static_cast<std::size_t>(kind.k), quantised, quantised_scales);
        q = quantised, scales = quantised_scales;
      }
      // The product is scaled in place when it overwrites y in f32; else it goes to the thread's buffer,
      // to be added to y or quantised.
      float* product = tile.y && !kind.accumulate ? tile.y : tile_product.reserve(static_cast<std::size_t>(m * kind.n));
      std::byte* pad = tile_scratchpad.reserve(p.scratchpad.get_size() + 1);
      auto args = int8_matmul_arguments(m, kind, q, weights, column_scales, product);
      args.emplace(DNNL_ARG_SCRATCHPAD, dnnl::memory(p.scratchpad, dnnl_context().engine, pad));
      p.matmul.execute(thread_stream(), args);
      thread_stream().wait();
      int8_epilogue_rows(kind, m, product, scales, bias, tile);
    } catch (...) {  // nothing may leave an OpenMP region
      failed = true;
    }
  }
  if (failed) runtime_error("an int8 linear layer [{}, {}] failed in a tile of rows", kind.n, kind.k);
}

}  // namespace bertkit::core
