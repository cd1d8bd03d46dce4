#include "core/bench/encoder_timing.h"

#include "core/bench/cpu_clock.h"

#include <algorithm>
#include <chrono>
#include <random>
#include <vector>

namespace bertkit::core {

double encoder_flops_per_sequence(const ModelConfig& c, std::int64_t length) {
  const double L = c.num_layers, s = static_cast<double>(length), h = c.hidden_size, i = c.intermediate_size;
  return 2 * L * (4 * s * h * h + 2 * s * h * i) + 4 * L * s * s * h;
}

EncoderTiming time_encoder(Encoder& encoder, std::int64_t batch, std::int64_t length, int min_runs, double min_seconds,
                           int threads) {
  std::mt19937 gen(7);
  std::uniform_int_distribution<std::int32_t> token(1000, encoder.config().vocab_size - 1);
  std::vector<std::vector<std::int32_t>> ids(static_cast<std::size_t>(batch));
  std::vector<TokenSequence> sequences;
  for (auto& seq : ids) {
    seq.resize(static_cast<std::size_t>(length));
    for (auto& id : seq) id = token(gen);
    sequences.push_back({seq, {}});
  }
  EncoderOutput out;
  encoder.forward(sequences, out);

  using clock = std::chrono::steady_clock;
  std::vector<double> times;
  double total = 0;
  double threads_used = 0;
  const double cpu_start = process_cpu_seconds();
  while (static_cast<int>(times.size()) < min_runs || total < min_seconds) {
    auto start = clock::now();
    encoder.forward(sequences, out);
    times.push_back(std::chrono::duration<double>(clock::now() - start).count());
    threads_used += encoder.last_threads();
    total += times.back();
  }
  const double cpu = process_cpu_seconds() - cpu_start;
  std::sort(times.begin(), times.end());
  EncoderTiming t;
  t.runs = static_cast<int>(times.size());
  t.median_seconds = times[times.size() / 2];
  t.min_seconds = times.front();
  t.sequences_per_second = static_cast<double>(batch) / t.median_seconds;
  t.tokens_per_second = t.sequences_per_second * static_cast<double>(length);
  t.gflops = t.sequences_per_second * encoder_flops_per_sequence(encoder.config(), length) / 1e9;
  t.threads_used = threads_used / static_cast<double>(times.size());
  t.cpu_share = cpu / (total * threads);
  return t;
}

}  // namespace bertkit::core
