#pragma once
// Timing the encoder on a synthetic workload: one batch of random-token sequences of the given lengths.
#include "core/model/config.h"
#include "core/model/encoder.h"

#include <cstdint>
#include <span>

namespace bertkit::core {

// The (query, key) pairs attention computes in a sequence of `length`: all of them, or with a sliding
// window (ModernBERT's local layers, window ≥ 0) those within it.
double attended_pairs(std::int64_t length, std::int64_t window);

// Matmul flops of one sequence: 2·(4·s·h² + 2·s·h·i) per layer for the projections and the
// feed-forward (3·s·h·i for a gated one), 4·h per attended pair for attention's two products.
double encoder_flops_per_sequence(const ModelConfig& config, std::int64_t length);

struct EncoderTiming {
  int runs = 0;
  double median_seconds = 0;  // of one batch
  double min_seconds = 0;
  double sequences_per_second = 0;  // from the median
  double tokens_per_second = 0;
  double gflops = 0;
  // The encoder's threads per batch, averaged: below the count asked for, it measured fewer to be faster
  // (another process held a core).
  double threads_used = 0;
  // Process CPU time over wall time × threads while timing: well below 1, other processes took the
  // cores and the figures understate the encoder.
  double cpu_share = 0;
};

// One warm-up batch (primitive creation, first touch of the scratch), then batches until both
// `min_runs` and `min_seconds` are reached.
EncoderTiming time_encoder(Encoder& encoder, std::span<const std::int64_t> lengths, int min_runs, double min_seconds,
                           int threads);

}  // namespace bertkit::core
