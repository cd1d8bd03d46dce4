#include "core/ops/rotary.h"

#include "core/error.h"
#include "core/ops/op_profile.h"
#include "core/ops/simd.h"

#include <algorithm>
#include <cmath>

namespace bertkit::core {
namespace {

// NeoX layout: float c and c + half of each vector rotate by angle c. Written as transformers'
// q·cos + rotate_half(q)·sin.
BK_VECTOR_BODY void rotary_half_row_body(float* x, std::int64_t vectors, std::int64_t head_dim, std::int64_t half,
                                         const float* cos, const float* sin) {
  for (std::int64_t v = 0; v < vectors; ++v) {
    float* a = x + v * head_dim;
    float* b = a + half;
#pragma omp simd
    for (std::int64_t c = 0; c < half; ++c) {
      const float first = a[c], second = b[c];
      a[c] = first * cos[c] - second * sin[c];
      b[c] = second * cos[c] + first * sin[c];
    }
  }
}

// GPT-J layout: floats 2c and 2c + 1 rotate by angle c.
BK_VECTOR_BODY void rotary_interleaved_row_body(float* x, std::int64_t vectors, std::int64_t head_dim,
                                                std::int64_t half, const float* cos, const float* sin) {
  for (std::int64_t v = 0; v < vectors; ++v) {
    float* p = x + v * head_dim;
#pragma omp simd
    for (std::int64_t c = 0; c < half; ++c) {
      const float even = p[2 * c], odd = p[2 * c + 1];
      p[2 * c] = even * cos[c] - odd * sin[c];
      p[2 * c + 1] = odd * cos[c] + even * sin[c];
    }
  }
}

}  // namespace

constinit const VectorVariants<RotaryRow> rotary_half_row_variants = VectorClones<rotary_half_row_body>::variants;
constinit const VectorVariants<RotaryRow> rotary_interleaved_row_variants =
    VectorClones<rotary_interleaved_row_body>::variants;

RotaryEmbedding::RotaryEmbedding(const RotarySpec& spec) : spec_(spec) {
  if (spec.rotary_dim <= 0 || spec.rotary_dim > spec.head_dim || spec.rotary_dim % 2 != 0 || !(spec.theta > 0.0f))
    runtime_error("rotary embedding of {} of a head's {} floats with theta {}: the rotated part must be even and "
                  "within the head, theta positive (a family checks its config first)",
                  spec.rotary_dim, spec.head_dim, spec.theta);
  // transformers: 1.0 / (base ** (torch.arange(0, dim, 2).float() / dim)), each step in float32 (the power
  // is rounded once from its exact value, as a correctly rounded powf does).
  for (std::int64_t i = 0; i < spec.rotary_dim / 2; ++i) {
    const float exponent = static_cast<float>(2 * i) / static_cast<float>(spec.rotary_dim);
    const auto power = static_cast<float>(std::pow(static_cast<double>(spec.theta), static_cast<double>(exponent)));
    inverse_frequencies_.push_back(1.0f / power);
  }
}

void RotaryEmbedding::tabulate(std::int64_t positions) {
  if (positions <= positions_) return;
  const std::int64_t half = spec_.rotary_dim / 2;
  cos_.resize(static_cast<std::size_t>(positions * half));
  sin_.resize(cos_.size());
  for (std::int64_t p = positions_; p < positions; ++p)
    for (std::int64_t i = 0; i < half; ++i) {
      // The angle is a float32 product (the matmul of inv_freq and the positions); its cosine and sine
      // are rounded to float32 from their exact values.
      const float angle = static_cast<float>(p) * inverse_frequencies_[static_cast<std::size_t>(i)];
      cos_[static_cast<std::size_t>(p * half + i)] = static_cast<float>(std::cos(static_cast<double>(angle)));
      sin_[static_cast<std::size_t>(p * half + i)] = static_cast<float>(std::sin(static_cast<double>(angle)));
    }
  positions_ = positions;
}

void RotaryEmbedding::apply(float* x, std::int64_t stride, std::int64_t vectors, std::span<const std::int64_t> offsets,
                            const KernelTable& table) {
  ProfiledOp op("rotary");
  std::int64_t longest = 0;
  for (std::size_t s = 0; s + 1 < offsets.size(); ++s) longest = std::max(longest, offsets[s + 1] - offsets[s]);
  tabulate(longest);
  const auto row = spec_.layout == RotaryLayout::Half ? table.rotary_half_row : table.rotary_interleaved_row;
  const std::int64_t half = spec_.rotary_dim / 2, tokens = offsets.empty() ? 0 : offsets.back();
  const std::int64_t head_dim = spec_.head_dim;
  const float* cos = cos_.data();
  const float* sin = sin_.data();
  // Over tokens, not sequences: one long sequence is most of the work.
#pragma omp parallel for schedule(static) if (tokens * vectors * half >= 16384)
  for (std::int64_t t = 0; t < tokens; ++t) {
    const std::int64_t position = t - *(std::upper_bound(offsets.begin(), offsets.end(), t) - 1);
    row(x + t * stride, vectors, head_dim, half, cos + position * half, sin + position * half);
  }
}

}  // namespace bertkit::core
