#include "core/ops/int8_epilogue.h"

#include "core/ops/eltwise.h"
#include "core/ops/kernel_table.h"
#include "core/ops/simd.h"

namespace bertkit::core {
namespace {

enum class RowOutput : int { Overwrite, Accumulate, Multiply };

// One row: v = p·s + b, then written, added to y or times m.
BK_VECTOR_BODY void int8_epilogue_row_body(const float* p, float s, const float* b, const float* m, float* y,
                                           std::int64_t n, int output) {
  if (static_cast<RowOutput>(output) == RowOutput::Accumulate) {
    if (b) {
#pragma omp simd
      for (std::int64_t j = 0; j < n; ++j) y[j] = y[j] + (p[j] * s + b[j]);
    } else {
#pragma omp simd
      for (std::int64_t j = 0; j < n; ++j) y[j] = y[j] + p[j] * s;
    }
  } else if (static_cast<RowOutput>(output) == RowOutput::Multiply) {
    if (b) {
#pragma omp simd
      for (std::int64_t j = 0; j < n; ++j) y[j] = (p[j] * s + b[j]) * m[j];
    } else {
#pragma omp simd
      for (std::int64_t j = 0; j < n; ++j) y[j] = p[j] * s * m[j];
    }
  } else if (b) {
#pragma omp simd
    for (std::int64_t j = 0; j < n; ++j) y[j] = p[j] * s + b[j];
  } else {
#pragma omp simd
    for (std::int64_t j = 0; j < n; ++j) y[j] = p[j] * s;
  }
}

// Below this many values one thread does the rows: a team costs more than it saves.
constexpr std::int64_t kMinParallelValues = 16384;

}  // namespace

constinit const VectorVariants<void(const float*, float, const float*, const float*, float*, std::int64_t, int)>
    int8_epilogue_row_variants = VectorClones<int8_epilogue_row_body>::variants;

Int8Operands Int8Operands::from_row(std::int64_t r, std::int64_t k, std::int64_t n) const {
  Int8Operands rest = *this;
  if (x) rest.x += r * k;
  if (x_q.values) rest.x_q = x_q.from_row(r, k);
  if (y) rest.y += r * n;
  if (y_q.values) rest.y_q = y_q.from_row(r, n);
  if (multiplier) rest.multiplier += r * n;
  rest.norm = norm.from_row(r, n);
  return rest;
}

void int8_epilogue_rows(const MatmulKind& kind, std::int64_t rows, float* product, const float* row_scales,
                        const float* bias, const Int8Operands& io) {
  const KernelTable& table = kernels();
  const auto row = table.int8_epilogue_row;
  const auto normalise = table.layer_norm_row;
  const auto activate = table.activation_row;
  const auto activation = static_cast<int>(kind.eltwise);
  const RowOutput output = kind.accumulate ? RowOutput::Accumulate : kind.multiply ? RowOutput::Multiply : RowOutput::Overwrite;
  const std::int64_t n = kind.n;
  const LayerNormParams& norm = io.norm;
#pragma omp parallel for schedule(static) if (rows * n >= kMinParallelValues)
  for (std::int64_t r = 0; r < rows; ++r) {
    float* out = io.y ? io.y + r * n : product + r * n;
    row(product + r * n, row_scales[r], bias, io.multiplier ? io.multiplier + r * n : nullptr, out, n,
        static_cast<int>(output));
    if (kind.eltwise != Eltwise::Identity) activate(out, n, activation);
    if (norm.gamma) {
      normalise(out, out, n, norm.gamma, norm.beta, norm.eps);
      norm.copy.write_row(r, out, n);
    }
    if (io.y_q.values) io.y_q.write_row(r, out, n);
  }
}

}  // namespace bertkit::core
