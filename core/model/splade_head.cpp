#include "core/model/splade_head.h"

#include <algorithm>
#include <cmath>

namespace bertkit::core {

namespace {

// Positions projected onto the vocabulary at once: 64 rows of a 30,522-id vocabulary are 7.8 MB.
constexpr std::int64_t kPositionsPerChunk = 64;

}  // namespace

SpladeHead::SpladeHead(const ModelConfig& config, const Weights& weights, SpladePooling pooling)
    : head_(config, weights), pooling_(pooling) {}

SparseVector SpladeHead::forward(const EncoderOutput& out, std::size_t seq, std::span<const std::int32_t>) {
  pooled_.assign(static_cast<std::size_t>(head_.vocab_size()), 0.0f);
  const std::int64_t length = out.length(seq);
  for (std::int64_t first = 0; first < length; first += kPositionsPerChunk) {
    positions_.clear();
    for (std::int64_t p = first; p < std::min(length, first + kPositionsPerChunk); ++p) positions_.push_back({seq, p});
    head_.forward(out, positions_, logits_);
    fold(positions_.size());
  }
  return sparse_from_dense(pooled_);
}

// Every activation is ≥ 0, so a max starting from 0 equals torch.max over the tokens.
void SpladeHead::fold(std::size_t rows) {
  const std::size_t vocab = pooled_.size();
  const bool twice = pooling_.activation == SpladeActivation::Log1pRelu;
  const bool sum = pooling_.strategy == SpladeStrategy::Sum;
  for (std::size_t r = 0; r < rows; ++r) {
    const float* row = logits_.data() + r * vocab;
    for (std::size_t v = 0; v < vocab; ++v) {
      if (row[v] <= 0) continue;
      float a = std::log1p(row[v]);
      if (twice) a = std::log1p(a);
      pooled_[v] = sum ? pooled_[v] + a : std::max(pooled_[v], a);
    }
  }
}

}  // namespace bertkit::core
