#include "core/bench/encoder_timing.h"

#include "core/bench/run_timer.h"
#include "core/model/blocks/deberta_positions.h"
#include "core/model/family_spec.h"

#include <random>
#include <vector>

namespace bertkit::core {

double attended_pairs(std::int64_t length, std::int64_t window) {
  const auto n = static_cast<double>(length);
  if (window < 0 || 2 * window + 1 >= length) return n * n;
  // Every query sees 2·window + 1 keys, less those past either end: w·(w+1)/2 at each.
  const auto w = static_cast<double>(window);
  return n * (2 * w + 1) - w * (w + 1);
}

double disentangled_flops(const ModelConfig& c, std::int64_t length) {
  const DisentangledAttention& a = c.disentangled;
  if (!a.relative) return 0;
  RelativeRows rows;
  rows.tabulate(a, length);
  const int terms = int{a.c2p} + int{a.p2c};
  return terms * 2.0 * static_cast<double>(length) * static_cast<double>(rows.range(length).count) * c.hidden_size;
}

double encoder_flops_per_sequence(const ModelConfig& c, std::int64_t length) {
  const double s = static_cast<double>(length), h = c.hidden_size, i = c.intermediate_size;
  // A gated feed-forward (ModernBERT's GeGLU, NomicBERT's SwiGLU) projects to 2·i and back from i.
  const bool gated = c.family && (c.family->block == &modernbert_block_recipe || c.family->block == &nomic_block_recipe);
  const double ffn = gated ? 3 * s * h * i : 2 * s * h * i;
  double flops = 0;
  for (int l = 0; l < c.num_layers; ++l) {
    const std::int64_t window =
        c.layer_attention.empty() ? -1 : c.layer_attention[static_cast<std::size_t>(l)].window;
    flops += 2 * (4 * s * h * h + ffn) + 4 * h * attended_pairs(length, window) + disentangled_flops(c, length);
  }
  return flops;
}

EncoderTiming time_encoder(Encoder& encoder, std::span<const std::int64_t> lengths, int min_runs, double min_seconds,
                           int threads, bool profile) {
  std::mt19937 gen(7);
  std::uniform_int_distribution<std::int32_t> token(1000, encoder.config().vocab_size - 1);
  std::vector<std::vector<std::int32_t>> ids(lengths.size());
  std::vector<TokenSequence> sequences;
  double tokens = 0, flops = 0;
  for (std::size_t s = 0; s < lengths.size(); ++s) {
    ids[s].resize(static_cast<std::size_t>(lengths[s]));
    for (auto& id : ids[s]) id = token(gen);
    sequences.push_back({ids[s], {}});
    tokens += static_cast<double>(lengths[s]);
    flops += encoder_flops_per_sequence(encoder.config(), lengths[s]);
  }
  EncoderOutput out;
  encoder.forward(sequences, out);  // warm-up: primitive creation, first touch of the scratch
  set_op_profiling(profile);
  take_op_times();  // none from before
  double threads_used = 0;
  const RunTimes times = time_runs(
      [&] {
        encoder.forward(sequences, out);
        threads_used += encoder.last_threads();
      },
      min_runs, min_seconds);
  set_op_profiling(false);
  EncoderTiming t;
  t.runs = static_cast<int>(times.seconds.size());
  t.mean_seconds = times.total / t.runs;
  if (profile) {
    t.ops = take_op_times();
    for (OpTime& op : t.ops) {
      op.seconds /= t.runs;
      op.calls /= t.runs;
    }
  }
  t.median_seconds = times.median();
  t.min_seconds = times.seconds.front();
  t.sequences_per_second = static_cast<double>(lengths.size()) / t.median_seconds;
  t.tokens_per_second = tokens / t.median_seconds;
  t.gflops = flops / t.median_seconds / 1e9;
  t.threads_used = threads_used / static_cast<double>(t.runs);
  t.cpu_share = times.cpu_share(threads);
  return t;
}

}  // namespace bertkit::core
