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

// The tile primitives for `m` rows.
struct TilePrimitives {
  BlockPrimitive matmul;
  BlockEpilogue epilogue;
};

TilePrimitives tile_primitives(const MatmulKind& kind, std::int64_t m, const dnnl::memory::desc& weights) {
  return {matmul_block_primitive(kind, m, kind.n, weights),
          int8_epilogue_is_ours(kind) ? BlockEpilogue{} : int8_block_epilogue(kind, m)};
}

}  // namespace

bool int8_row_tiles_pay(std::int64_t rows, int threads) {
  return threads > 1 && threads <= kMaxTileThreads && rows >= kMinTileRows * threads;
}

void int8_row_tiled(const MatmulKind& kind, const float* x, std::int64_t rows, const dnnl::memory& weights,
                    const dnnl::memory& column_scales, const dnnl::memory& bias, float* y, const float* multiplier,
                    const LayerNormParams* norm) {
  // Tiles of equal height, as many as a multiple of the threads: 3 tiles on 2 threads left one idle a
  // third of the time (1x384 on 2 cores: 20% slower than the whole layer).
  const std::int64_t threads = omp_get_max_threads();
  const std::int64_t tiles_per_thread = (rows + threads * kMaxTileRows - 1) / (threads * kMaxTileRows);
  const std::int64_t tile_rows = (rows + threads * tiles_per_thread - 1) / (threads * tiles_per_thread);
  const std::int64_t tiles = (rows + tile_rows - 1) / tile_rows;
  const std::int64_t last_rows = rows - (tiles - 1) * tile_rows;
  // Fetched here, before the tiles: two heights at most, and the tiles take no lock.
  const TilePrimitives full = tile_primitives(kind, tile_rows, weights.get_desc());
  const TilePrimitives last = tile_primitives(kind, last_rows, weights.get_desc());
  const float* bias_values = kind.bias ? static_cast<const float*>(bias.get_data_handle()) : nullptr;
  std::atomic<bool> failed{false};
#pragma omp parallel for schedule(dynamic)
  for (std::int64_t t = 0; t < tiles; ++t) {
    const ThreadLimit one(1);  // the primitives run on this thread alone
    const std::int64_t r0 = t * tile_rows, m = t + 1 == tiles ? last_rows : tile_rows;
    const TilePrimitives& p = t + 1 == tiles ? last : full;
    try {
      std::int8_t* q = tile_input.reserve(static_cast<std::size_t>(m * kind.k));
      float* scales = tile_scales.reserve(static_cast<std::size_t>(m));
      quantize_s8_rows(x + r0 * kind.k, static_cast<std::size_t>(m), static_cast<std::size_t>(kind.k), q, scales);
      float* out = y + r0 * kind.n;
      // A residual layer's product goes to the thread's buffer, to be added to y; any other's is scaled
      // in place.
      float* product = kind.accumulate ? tile_product.reserve(static_cast<std::size_t>(m * kind.n)) : out;
      const std::size_t pad_bytes = std::max(p.matmul.scratchpad.get_size(), p.epilogue.scratchpad.get_size());
      std::byte* pad = tile_scratchpad.reserve(pad_bytes + 1);
      auto& engine = dnnl_context().engine;
      const float* tile_multiplier = multiplier ? multiplier + r0 * kind.n : nullptr;
      Int8Arguments args = int8_arguments(kind, m, q, scales, weights, column_scales, bias, product, out, tile_multiplier);
      args.matmul.emplace(DNNL_ARG_SCRATCHPAD, dnnl::memory(p.matmul.scratchpad, engine, pad));
      p.matmul.matmul.execute(thread_stream(), args.matmul);
      if (int8_epilogue_is_ours(kind)) {
        thread_stream().wait();
        LayerNormParams tile_norm = norm ? *norm : LayerNormParams{};
        if (tile_norm.y_bf16) tile_norm.y_bf16 += r0 * kind.n;
        int8_epilogue_rows(kind, m, product, scales, bias_values, tile_multiplier, out, norm ? &tile_norm : nullptr);
        continue;
      }
      args.epilogue.emplace(DNNL_ARG_SCRATCHPAD, dnnl::memory(p.epilogue.scratchpad, engine, pad));
      p.epilogue.binary.execute(thread_stream(), args.epilogue);
      thread_stream().wait();
    } catch (...) {  // nothing may leave an OpenMP region
      failed = true;
    }
  }
  if (failed) runtime_error("an int8 linear layer [{}, {}] failed in a tile of rows", kind.n, kind.k);
}

}  // namespace bertkit::core
