#pragma once
// How many of the allowed threads the encoder's next pass uses. The matmuls (oneDNN's) and kernels split
// their work statically, so every region waits for its slowest thread: when another process holds one
// of the cores, the thread that shares it drags the whole team (measured on 2 cores with a busy loop on
// one: 2 threads ran minilm-l6 int8 at 0.3x the speed of 1). Nothing outside the process says reliably
// whether a core is contended, so the count is chosen by measuring the passes themselves: they run with
// the best count found so far, and now and then one pass tries the next count up or down a ladder (all,
// all-1, ..., 1); a clearly cheaper one is taken. A count below all is retried at growing intervals, in
// case the competitor left. A count below the current one is tried only after the process was
// preempted (involuntary context switches, which an idle machine hardly makes), so a quiet machine never
// pays for a probe. The results do not depend on the count: the encoder is exact for any thread count.
#include <cstdint>
#include <optional>
#include <vector>

namespace bertkit::core {

// One finished pass: its thread count, wall seconds, work (any unit proportional to its arithmetic)
// and the process's involuntary context switches during it.
struct PassMeasure {
  int threads = 1;
  double seconds = 0;
  double work = 0;
  std::int64_t preemptions = 0;
};

class AdaptiveThreads {
 public:
  // The thread count for the next pass when `allowed` may be used.
  int next(int allowed);
  void record(const PassMeasure& pass);

  // The ladder of counts tried under `allowed`, from `allowed` down to 1: every count up to 8, then
  // steps of about 15% (so a large machine with one busy core finds allowed-1 in one step).
  static std::vector<int> ladder(int allowed);

 private:
  std::vector<int> ladder_;       // its front is the allowed count
  std::size_t current_ = 0;      // index into ladder_
  std::vector<double> cost_;     // seconds per unit of work of each rung; 0: not measured
  std::optional<std::size_t> probing_;
  int passes_ = 0;               // since the last probe
  int interval_ = 0;             // passes between probes
  std::int64_t preemptions_ = 0;  // since the last probe
  double thread_seconds_ = 0;     // since the last probe: passes' seconds times their threads
  bool probe_down_next_ = true;

  void reset(int allowed);
  void start_interval();  // the counts since the last probe start again
  std::optional<std::size_t> probe_rung();
};

}  // namespace bertkit::core
