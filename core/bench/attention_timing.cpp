#include "core/bench/attention_timing.h"

#include "core/bench/run_timer.h"

#include <sys/resource.h>

#include <random>
#include <vector>

namespace bertkit::core {
namespace {

double peak_rss_mib() {
  rusage usage{};
  getrusage(RUSAGE_SELF, &usage);
  return static_cast<double>(usage.ru_maxrss) / 1024.0;  // ru_maxrss is in KiB
}

}  // namespace

AttentionTiming time_attention(const AttentionShape& shape, std::int64_t length, int min_runs, double min_seconds,
                               int threads) {
  const std::int64_t hidden = shape.heads * shape.head_dim;
  std::vector<float> qkv(static_cast<std::size_t>(length * 3 * hidden)), out(static_cast<std::size_t>(length * hidden));
  std::mt19937 gen(7);
  std::uniform_real_distribution<float> value(-2.0f, 2.0f);
  for (float& x : qkv) x = value(gen);
  const std::vector<std::int64_t> offsets{0, length};
  ScoreModifier modifier;
  modifier.window = shape.window;
  SelfAttention attention;
  auto run = [&] { attention.forward(qkv.data(), offsets, shape.heads, shape.head_dim, out.data(), shape.products, modifier); };
  run();  // warm-up: the scratch is sized and touched
  const RunTimes times = time_runs(run, min_runs, min_seconds);
  AttentionTiming t;
  t.runs = static_cast<int>(times.seconds.size());
  t.median_seconds = times.median();
  t.cpu_share = times.cpu_share(threads);
  t.input_mib = static_cast<double>((qkv.size() + out.size()) * sizeof(float)) / (1 << 20);
  t.working_mib = static_cast<double>(attention.scratch_bytes()) / (1 << 20);
  t.peak_rss_mib = peak_rss_mib();
  return t;
}

}  // namespace bertkit::core
