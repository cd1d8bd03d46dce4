#pragma once
// Timing a repeated run until both `min_runs` and `min_seconds` are reached (after the caller's warm-up
// run: primitive creation, first touch of scratch). Shared by the encoder's and the attention op's
// benchmarks.
#include <functional>
#include <vector>

namespace bertkit::core {

struct RunTimes {
  std::vector<double> seconds;  // of each run, sorted
  double total = 0;             // their sum
  double cpu_seconds = 0;       // process CPU time over the runs (all threads)
  double median() const { return seconds[seconds.size() / 2]; }
  // CPU time over wall time × threads: well below 1, other processes took the cores.
  double cpu_share(int threads) const { return cpu_seconds / (total * threads); }
};

RunTimes time_runs(const std::function<void()>& run, int min_runs, double min_seconds);

}  // namespace bertkit::core
