#include "core/ops/int8_epilogue.h"

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

bool int8_epilogue_is_ours(const MatmulKind& kind) { return kind.eltwise == dnnl::algorithm::undef; }

void int8_epilogue_rows(const MatmulKind& kind, std::int64_t rows, const float* product, const float* row_scales,
                        const float* bias, const float* multiplier, float* y, const LayerNormParams* norm) {
  const KernelTable& table = kernels();
  const auto row = table.int8_epilogue_row;
  const auto normalise = table.layer_norm_row;
  const auto round = table.round_to_bf16;
  const RowOutput output = kind.accumulate ? RowOutput::Accumulate : kind.multiply ? RowOutput::Multiply : RowOutput::Overwrite;
  const std::int64_t n = kind.n;
#pragma omp parallel for schedule(static) if (rows * n >= kMinParallelValues)
  for (std::int64_t r = 0; r < rows; ++r) {
    float* out = y + r * n;
    row(product + r * n, row_scales[r], bias, multiplier ? multiplier + r * n : nullptr, out, n, static_cast<int>(output));
    if (!norm) continue;
    normalise(out, out, n, norm->gamma, norm->beta, norm->eps);
    if (norm->y_bf16) round(out, static_cast<std::size_t>(n), norm->y_bf16 + r * n);
  }
}

}  // namespace bertkit::core
