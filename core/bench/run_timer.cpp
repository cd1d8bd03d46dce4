#include "core/bench/run_timer.h"

#include "core/bench/cpu_clock.h"

#include <algorithm>
#include <chrono>

namespace bertkit::core {

RunTimes time_runs(const std::function<void()>& run, int min_runs, double min_seconds) {
  using clock = std::chrono::steady_clock;
  RunTimes t;
  const double cpu_start = process_cpu_seconds();
  while (static_cast<int>(t.seconds.size()) < min_runs || t.total < min_seconds) {
    const auto start = clock::now();
    run();
    t.seconds.push_back(std::chrono::duration<double>(clock::now() - start).count());
    t.total += t.seconds.back();
  }
  t.cpu_seconds = process_cpu_seconds() - cpu_start;
  std::sort(t.seconds.begin(), t.seconds.end());
  return t;
}

}  // namespace bertkit::core
