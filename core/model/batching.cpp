#include "core/model/batching.h"

#include "core/error.h"

#include <algorithm>
#include <numeric>

namespace bertkit::core {

std::vector<std::vector<std::size_t>> plan_batches(std::span<const std::int64_t> lengths, const BatchLimits& limits) {
  if (limits.max_tokens <= 0 || limits.max_sequences == 0)
    usage_error("a batch must allow at least one token and one input");
  std::vector<std::size_t> order(lengths.size());
  std::iota(order.begin(), order.end(), 0);
  std::stable_sort(order.begin(), order.end(), [&](std::size_t a, std::size_t b) { return lengths[a] > lengths[b]; });

  std::vector<std::vector<std::size_t>> batches;
  std::int64_t tokens = 0;
  for (std::size_t index : order) {
    const bool fits = !batches.empty() && batches.back().size() < limits.max_sequences &&
                      tokens + lengths[index] <= limits.max_tokens;
    if (!fits) {
      batches.emplace_back();
      tokens = 0;
    }
    batches.back().push_back(index);
    tokens += lengths[index];
  }
  return batches;
}

}  // namespace bertkit::core
