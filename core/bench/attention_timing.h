#pragma once
// Timing the attention op alone on one long sequence of random Q | K | V (ModernBERT's 8,192 tokens, with
// and without a sliding window), with the memory it needed: its own working memory, which grows with
// the length and not its square, and the process's peak resident memory.
#include "core/ops/attention.h"

#include <cstdint>

namespace bertkit::core {

struct AttentionShape {
  int heads = 12;
  std::int64_t head_dim = 64;
  std::int64_t window = -1;  // ScoreModifier::window; none when negative
  AttentionProducts products = AttentionProducts::F32;
};

struct AttentionTiming {
  int runs = 0;
  double median_seconds = 0;
  double cpu_share = 0;       // as EncoderTiming's
  double input_mib = 0;       // Q | K | V and the output, [length, 4·hidden] floats
  double working_mib = 0;     // the op's scratch, all threads together
  double peak_rss_mib = 0;    // the process's peak resident memory so far
};

AttentionTiming time_attention(const AttentionShape& shape, std::int64_t length, int min_runs, double min_seconds,
                               int threads);

}  // namespace bertkit::core
