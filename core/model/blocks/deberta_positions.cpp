#include "core/model/blocks/deberta_positions.h"

#include <algorithm>
#include <cmath>

namespace bertkit::core {

std::int64_t deberta_relative_bucket(std::int64_t delta, int buckets, int max_position) {
  const std::int64_t mid = buckets / 2;
  const std::int64_t magnitude = delta < 0 ? -delta : delta;
  if (buckets <= 0 || magnitude <= mid) return delta;
  // torch: ceil(log(|δ| / mid) / log(tensor((max_position − 1) / mid)) * (mid − 1)) + mid on float32
  // tensors; the Python quotient (max_position − 1) / mid is a double rounded to float32.
  const float ratio = static_cast<float>(magnitude) / static_cast<float>(mid);
  const auto range = static_cast<float>(static_cast<double>(max_position - 1) / static_cast<double>(mid));
  const float scaled = std::log(ratio) / std::log(range) * static_cast<float>(mid - 1);
  const auto bucket = static_cast<std::int64_t>(std::ceil(scaled) + static_cast<float>(mid));
  return delta < 0 ? -bucket : bucket;
}

void RelativeRows::tabulate(const DisentangledAttention& attention, std::int64_t longest) {
  const std::int64_t span = attention.span();
  if (!rows_.empty() && longest_ == std::max<std::int64_t>(longest, 1)) return;  // tabulated for this length
  longest_ = std::max<std::int64_t>(longest, 1);
  rows_.resize(static_cast<std::size_t>(2 * longest_ - 1));
  for (std::int64_t d = -(longest_ - 1); d < longest_; ++d) {
    const std::int64_t bucket = deberta_relative_bucket(d, attention.buckets, attention.max_relative);
    const std::int64_t row = std::clamp<std::int64_t>(bucket + span, 0, 2 * span - 1);
    rows_[static_cast<std::size_t>(d + longest_ - 1)] = static_cast<std::int32_t>(row);
  }
}

}  // namespace bertkit::core
