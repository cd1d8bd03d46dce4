#include "core/model/maxsim.h"

#include <algorithm>
#include <limits>

namespace bertkit::core {

float maxsim(std::span<const float> query, std::span<const float> document, std::int64_t dim,
             MaxSimReduction reduction) {
  const auto d = static_cast<std::size_t>(dim);
  const std::size_t queries = query.size() / d, documents = document.size() / d;
  double total = 0;
  for (std::size_t q = 0; q < queries && documents > 0; ++q) {
    const float* a = query.data() + q * d;
    double best = -std::numeric_limits<double>::infinity();
    for (std::size_t r = 0; r < documents; ++r) {
      const float* b = document.data() + r * d;
      double dot = 0;
      for (std::size_t j = 0; j < d; ++j) dot += double(a[j]) * b[j];
      best = std::max(best, dot);
    }
    total += best;
  }
  if (reduction == MaxSimReduction::Mean && queries > 0) total /= static_cast<double>(queries);
  return static_cast<float>(total);
}

}  // namespace bertkit::core
