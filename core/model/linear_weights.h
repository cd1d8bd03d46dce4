#pragma once
// The weight of a Linear layer as a checkpoint or converted file stores it: f32, f16, bf16, or int8 with
// its per-row "<name>.scale". The layer computes in that type (see core/ops/linear.h).
#include "core/checkpoint/weights.h"
#include "core/model/tensor_decls.h"
#include "core/ops/linear.h"

#include <cstddef>
#include <cstdint>
#include <span>
#include <string>
#include <vector>

namespace bertkit::core {

// A view into `weights`; BadInput naming the tensor if it is absent or not [out, in].
LinearWeight linear_weight(const Weights& weights, const std::string& name, std::int64_t out, std::int64_t in);

// The bias `decl` declares, f32; empty when the module has none.
std::span<const float> linear_bias(const Weights& weights, const LinearDecl& decl);

// The Linear layer `decl` declares: its weight in the type stored, its bias f32.
Linear linear_layer(const Weights& weights, const LinearDecl& decl, Eltwise activation = Eltwise::Identity,
                    LinearOutput output = LinearOutput::Overwrite);

// Weights of the same input width stacked by rows (Q, K and V as one matmul), in their common type;
// should their types differ, in f32.
class StackedWeight {
 public:
  StackedWeight(const Weights& weights, std::span<const std::string> names, std::int64_t rows_each, std::int64_t in);
  const LinearWeight& view() const { return view_; }

 private:
  std::vector<std::byte> bytes_;
  std::vector<float> scales_;
  LinearWeight view_;
};

}  // namespace bertkit::core
