#pragma once
// Timing the encoder on a synthetic workload: one batch of random-token sequences of the given lengths.
#include "core/model/config.h"
#include "core/model/encoder.h"
#include "core/ops/op_profile.h"

#include <cstdint>
#include <span>
#include <vector>

namespace bertkit::core {

// The (query, key) pairs attention computes in a sequence of `length`: all of them, or with a sliding
// window (ModernBERT's local layers, window ≥ 0) those within it.
double attended_pairs(std::int64_t length, std::int64_t window);

// Matmul flops of one sequence: 2·(4·s·h² + 2·s·h·i) per layer for the projections and the
// feed-forward (3·s·h·i for a gated one), 4·h per attended pair for attention's two products, and
// DeBERTa's c2p and p2c products, 2·s·R·h each, R the relative rows a sequence of s tokens reads (the
// relative embeddings' own projections are computed once, at load: no work per batch).
double encoder_flops_per_sequence(const ModelConfig& config, std::int64_t length);
// The c2p and p2c part, per layer; 0 without disentangled attention.
double disentangled_flops(const ModelConfig& config, std::int64_t length);

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
  // With profiling: each op's seconds and calls per batch (core/ops/op_profile.h), and the batch's mean
  // seconds they are part of.
  std::vector<OpTime> ops;
  double mean_seconds = 0;
};

// One warm-up batch (primitive creation, first touch of the scratch), then batches until both
// `min_runs` and `min_seconds` are reached; `profile`: with the time of each op.
EncoderTiming time_encoder(Encoder& encoder, std::span<const std::int64_t> lengths, int min_runs, double min_seconds,
                           int threads, bool profile = false);

}  // namespace bertkit::core
