#include "core/model/relative_position_bias.h"

#include <algorithm>
#include <cmath>

namespace bertkit::core {

int relative_position_bucket(std::int64_t relative_position) {
  constexpr int kHalf = kRelativePositionBuckets / 2;  // keys after the query take the upper half
  constexpr int kExact = kHalf / 2;                    // distances below this have a bucket each
  constexpr double kMaxDistance = 128;
  const int direction = relative_position > 0 ? kHalf : 0;
  const std::int64_t distance = relative_position < 0 ? -relative_position : relative_position;
  if (distance < kExact) return direction + static_cast<int>(distance);
  // torch: (log(n.float() / 8) / math.log(128 / 8) * 8).to(long), every step on float32 tensors (the
  // Python scalars rounded to float32), then truncated toward zero.
  const float ratio = static_cast<float>(distance) / static_cast<float>(kExact);
  const float scaled = std::log(ratio) / static_cast<float>(std::log(kMaxDistance / kExact)) * float(kHalf - kExact);
  const auto large = kExact + static_cast<std::int64_t>(scaled);
  return direction + static_cast<int>(std::min<std::int64_t>(large, kHalf - 1));
}

TensorDecl RelativePositionBias::declare(const ModelConfig& config, TensorDecls& decls) {
  return decls.tensor("encoder.relative_attention_bias.weight", {config.relative_attention_buckets, config.num_heads});
}

RelativePositionBias::RelativePositionBias(const ModelConfig& config, const Weights& weights)
    : heads_(config.num_heads) {
  TensorDecls decls;
  const TensorDecl table = declare(config, decls);
  const auto values = weights.require(table.name, table.shape).f32();
  weights_.assign(values.begin(), values.end());
}

RelativeScoreBias RelativePositionBias::tabulate(std::int64_t longest) {
  const std::int64_t width = std::max<std::int64_t>(2 * longest - 1, 1), center = longest - 1;
  float* rows = table_.reserve(static_cast<std::size_t>(heads_ * width));
  for (std::int64_t d = 0; d < width; ++d) {
    const float* bucket = weights_.data() + relative_position_bucket(d - center) * heads_;
    for (int h = 0; h < heads_; ++h) rows[h * width + d] = bucket[h];
  }
  return {rows, width, center};
}

}  // namespace bertkit::core
