#pragma once
// DeBERTa-v2's relative positions: transformers' build_relative_position (δ = query index − key index)
// and make_log_bucket_position (δ kept up to position_buckets / 2, log-bucketed beyond), and the row of
// the relative embeddings each δ reads in the c2p and p2c terms: clip(bucket(δ) + span, 0, 2·span − 1)
// (p2c reads −bucket(−δ) + span, the same row: the buckets are odd in δ).
#include "core/model/config.h"

#include <cstdint>
#include <vector>

namespace bertkit::core {

// make_log_bucket_position(δ, buckets, max_position), every step in float32 as torch computes it (the
// boundaries between buckets depend on it); δ itself where buckets is 0.
std::int64_t deberta_relative_bucket(std::int64_t delta, int buckets, int max_position);

// The relative-embedding row of every δ that sequences of up to `longest` tokens have.
class RelativeRows {
 public:
  // Always for the same `attention` (a layer's own); again for the same `longest`, nothing to do.
  void tabulate(const DisentangledAttention& attention, std::int64_t longest);
  // The row of δ = i − j (|δ| < longest) is at_zero()[δ].
  const std::int32_t* at_zero() const { return rows_.data() + (longest_ - 1); }

  // The rows a sequence of `length` tokens reads: `count` of them from `first` (rows grow with δ).
  struct Range {
    std::int64_t first, count;
  };
  Range range(std::int64_t length) const { return band(length, 0, length, true); }
  // The rows `tile` content rows from `at` of a sequence of `length` tokens read against all of its
  // tokens: queries (c2p: δ from at − (length − 1)) or keys (p2c: δ from −(at + tile − 1)), length + tile − 1
  // values of δ. With the whole sequence as the tile, range(length).
  Range band(std::int64_t length, std::int64_t at, std::int64_t tile, bool queries) const {
    const std::int64_t lowest = queries ? at - (length - 1) : -(at + tile - 1);
    const std::int64_t first = at_zero()[lowest];
    return {first, at_zero()[lowest + length + tile - 2] - first + 1};
  }

 private:
  std::vector<std::int32_t> rows_;  // δ from −(longest − 1)
  std::int64_t longest_ = 0;
};

}  // namespace bertkit::core
