#pragma once
// A linear layer on oneDNN: y = act(x · Wᵀ + b), or y += x · Wᵀ + b for a residual connection.
// The weights are reordered once, here, into the packed layout oneDNN picks; bias, activation and the
// residual sum run as post-ops of the matmul, so the output is written once.
#include "core/dnnl/matmul_cache.h"
#include "core/ops/eltwise.h"

#include <oneapi/dnnl/dnnl.hpp>

#include <cstdint>
#include <span>

namespace bertkit::core {

enum class LinearOutput {
  Overwrite,   // y = act(x·Wᵀ + b)
  Accumulate,  // y += x·Wᵀ + b (activation must be Identity)
};

class Linear {
 public:
  Linear() = default;
  // weight: [out, in] row-major, as PyTorch stores nn.Linear; bias: [out] or empty. Both are copied.
  Linear(std::span<const float> weight, std::span<const float> bias, std::int64_t out, std::int64_t in,
         Eltwise activation = Eltwise::Identity, LinearOutput output = LinearOutput::Overwrite);

  // x: [rows, in], y: [rows, out], both row-major and not overlapping.
  void forward(const float* x, std::int64_t rows, float* y) const;

  std::int64_t in_features() const { return kind_.k; }
  std::int64_t out_features() const { return kind_.n; }

 private:
  MatmulKind kind_;
  dnnl::memory weights_;
  dnnl::memory bias_;
};

}  // namespace bertkit::core
