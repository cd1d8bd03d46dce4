#pragma once
// Which inputs run together. The encoder packs sequences without padding, so grouping does not change
// the numbers; it bounds memory (a token budget) and keeps attention work even across threads by
// putting inputs of similar length together. Callers put results back in input order by index.
#include <cstddef>
#include <cstdint>
#include <span>
#include <vector>

namespace bertkit::core {

struct BatchLimits {
  std::int64_t max_tokens = 16384;    // tokens per batch (a longer single input still gets its own batch)
  std::size_t max_sequences = 256;    // inputs per batch
};

// Input indices grouped into batches, longest inputs first; every index appears exactly once.
std::vector<std::vector<std::size_t>> plan_batches(std::span<const std::int64_t> lengths, const BatchLimits& limits);

}  // namespace bertkit::core
