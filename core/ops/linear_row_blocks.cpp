#include "core/ops/linear_row_blocks.h"

#include "core/dnnl/api_compat.h"
#include "core/dnnl/context.h"
#include "core/ops/buffer.h"
#include "core/ops/cpu_features.h"
#include "core/ops/threading.h"

#include <omp.h>

#include <algorithm>
#include <cstring>
#include <unordered_map>

namespace bertkit::core {
namespace {

using dt = dnnl::memory::data_type;
using tag = dnnl::memory::format_tag;

constexpr std::int64_t kRowStep = 6;    // the sgemm's row block
// Rows of one call, a multiple of kRowStep. Measured on oneDNN 2.6's AVX2 sgemm, one thread: every
// multiple of 6 up to 72 rows (weights row-major) or 144 (column-major) computes a row the same at any
// place in the call; past that the sgemm splits the rows into blocks that are not multiples of 6.
constexpr std::int64_t kMaxRows = 48;
constexpr std::int64_t kColumns = 256;  // columns of one call (the last block of a layer may be narrower)

// One thread's padded copy of a last row block.
thread_local FloatBuffer padded_rows;
thread_local FloatBuffer padded_out;
thread_local FloatBuffer scratchpad;  // the blocks' primitives take a scratchpad each thread brings

bool row_major(const dnnl::memory::desc& layout) { return dnnl_compat::matrix_strides(layout)[1] == 1; }

// One call to oneDNN: m rows (a multiple of kRowStep), n columns, output rows ldy floats apart.
struct BlockShape {
  std::int64_t m, n, ldy;
};

// The call of the item whose block starts at row r0, column c0: a last row block that is not a multiple
// of kRowStep is padded, and written to a buffer of its own, n wide.
BlockShape block_shape(const MatmulKind& kind, std::int64_t rows, std::int64_t r0, std::int64_t c0) {
  const std::int64_t m = std::min(kMaxRows, rows - r0), n = std::min(kColumns, kind.n - c0);
  if (m % kRowStep == 0) return {m, n, kind.n};
  return {(m + kRowStep - 1) / kRowStep * kRowStep, n, n};
}

// The weights' n columns of a block, strided within the whole [k, kind.n] matrix.
dnnl::memory::desc block_weights(const MatmulKind& kind, std::int64_t n, const dnnl::memory::desc& layout) {
  return {{kind.k, n}, dt::f32, row_major(layout) ? dnnl::memory::dims{kind.n, 1} : dnnl::memory::dims{1, kind.k}};
}

BlockPrimitive block_primitive(const MatmulKind& kind, const BlockShape& shape, const dnnl::memory::desc& layout) {
  MatmulKind block = kind;
  block.n = shape.n;
  return matmul_block_primitive(block, shape.m, shape.ldy, block_weights(kind, shape.n, layout));
}

// One call: y[shape.m, shape.n] from x[shape.m, k] and the weights' columns from c0.
void run_block(const BlockPrimitive& primitive, const MatmulKind& kind, const BlockShape& shape, const float* x,
               const float* weights, const dnnl::memory::desc& layout, std::int64_t c0, const float* bias, float* y) {
  const float* w = weights + (row_major(layout) ? c0 : c0 * kind.k);
  auto& engine = dnnl_context().engine;
  float* pad = scratchpad.reserve(primitive.scratchpad.get_size() / sizeof(float) + 1);
  std::unordered_map<int, dnnl::memory> args{
      {DNNL_ARG_SRC, dnnl::memory({{shape.m, kind.k}, dt::f32, tag::ab}, engine, const_cast<float*>(x))},
      {DNNL_ARG_WEIGHTS, dnnl::memory(block_weights(kind, shape.n, layout), engine, const_cast<float*>(w))},
      {DNNL_ARG_DST, dnnl::memory({{shape.m, shape.n}, dt::f32, dnnl::memory::dims{shape.ldy, 1}}, engine, y)},
      {DNNL_ARG_SCRATCHPAD, dnnl::memory(primitive.scratchpad, engine, pad)}};
  if (bias) args.emplace(DNNL_ARG_BIAS, dnnl::memory({{1, shape.n}, dt::f32, tag::ab}, engine, const_cast<float*>(bias)));
  primitive.matmul.execute(thread_stream(), args);
  thread_stream().wait();
}

}  // namespace

bool uses_row_blocks(const MatmulKind& kind, const dnnl::memory::desc& layout) {
  const CpuSelection& cpu = cpu_selection();
  return kind.weights == dt::f32 && cpu.path == CpuPath::Avx2 &&
         (layout == dnnl::memory::desc({kind.k, kind.n}, dt::f32, tag::ab) ||
          layout == dnnl::memory::desc({kind.k, kind.n}, dt::f32, tag::ba));
}

void row_blocked_matmul(const MatmulKind& kind, const float* x, std::int64_t rows, const float* weights,
                        const dnnl::memory::desc& layout, const float* bias, float* y) {
  const std::int64_t row_blocks = (rows + kMaxRows - 1) / kMaxRows;
  const std::int64_t column_blocks = (kind.n + kColumns - 1) / kColumns;
  const std::int64_t items = row_blocks * column_blocks;
  // The items' primitives, fetched once per call: the last row block and the last column block may each
  // have a shape of their own, so there are at most four, and the items take no lock.
  BlockPrimitive primitives[2][2];
  for (int last_row : {0, 1})
    for (int last_column : {0, 1})
      primitives[last_row][last_column] = block_primitive(
          kind, block_shape(kind, rows, last_row * (row_blocks - 1) * kMaxRows, last_column * (column_blocks - 1) * kColumns),
          layout);
  const int threads = rows * kind.k * kind.n < kMinParallelWork ? 1 : static_cast<int>(std::min<std::int64_t>(items, omp_get_max_threads()));
#pragma omp parallel for num_threads(threads) schedule(static)
  for (std::int64_t item = 0; item < items; ++item) {
    const ThreadLimit one(1);  // oneDNN's own threads would move the sgemm's row blocks
    const std::int64_t row_block = item / column_blocks, column_block = item % column_blocks;
    const std::int64_t r0 = row_block * kMaxRows, c0 = column_block * kColumns;
    const BlockPrimitive& primitive = primitives[row_block == row_blocks - 1][column_block == column_blocks - 1];
    const BlockShape shape = block_shape(kind, rows, r0, c0);
    const std::int64_t m = std::min(kMaxRows, rows - r0), n = shape.n, padded = shape.m;
    const float* b = bias ? bias + c0 : nullptr;
    if (m == padded) {
      run_block(primitive, kind, shape, x + r0 * kind.k, weights, layout, c0, b, y + r0 * kind.n + c0);
      continue;
    }
    // The last rows, padded with zero rows to a whole block; the residual read from y when accumulating.
    float* in = padded_rows.reserve(static_cast<std::size_t>(padded * kind.k));
    float* out = padded_out.reserve(static_cast<std::size_t>(padded * n));
    std::memcpy(in, x + r0 * kind.k, static_cast<std::size_t>(m * kind.k) * sizeof(float));
    std::fill(in + m * kind.k, in + padded * kind.k, 0.0f);
    for (std::int64_t r = 0; r < padded; ++r) {
      if (kind.accumulate && r < m) std::memcpy(out + r * n, y + (r0 + r) * kind.n + c0, static_cast<std::size_t>(n) * sizeof(float));
      else std::fill(out + r * n, out + (r + 1) * n, 0.0f);
    }
    run_block(primitive, kind, shape, in, weights, layout, c0, b, out);
    for (std::int64_t r = 0; r < m; ++r)
      std::memcpy(y + (r0 + r) * kind.n + c0, out + r * n, static_cast<std::size_t>(n) * sizeof(float));
  }
}

}  // namespace bertkit::core
