// AdaptiveThreads against a simulated machine: each pass's seconds come from a cost per thread count,
// and a contended machine preempts each thread hundreds of times a second, a quiet one a few times.
#include "core/model/adaptive_threads.h"

#include <doctest/doctest.h>

#include <functional>
#include <map>

namespace {

using bertkit::core::AdaptiveThreads;
using bertkit::core::PassMeasure;

struct Machine {
  std::function<double(int)> seconds;  // a pass's seconds with this many threads
  bool contended = false;
};

// Runs `passes` passes of unit work; returns how many ran with each thread count, and the total time.
std::map<int, int> run(AdaptiveThreads& adaptive, const Machine& m, int allowed, int passes, double* total = nullptr) {
  std::map<int, int> counts;
  for (int p = 0; p < passes; ++p) {
    const int threads = adaptive.next(allowed);
    const double s = m.seconds(threads);
    if (total) *total += s;
    const double rate = m.contended ? 900 : 30;  // per thread-second, as measured on 2 cores
    adaptive.record({threads, s, 1.0, static_cast<std::int64_t>(rate * s * threads + 0.5)});
    ++counts[threads];
  }
  return counts;
}

}  // namespace

TEST_CASE("adaptive threads: the ladder runs from all threads down to one") {
  CHECK(AdaptiveThreads::ladder(1) == std::vector<int>{1});
  CHECK(AdaptiveThreads::ladder(2) == std::vector<int>{2, 1});
  CHECK(AdaptiveThreads::ladder(8) == std::vector<int>{8, 7, 6, 5, 4, 3, 2, 1});
  const auto many = AdaptiveThreads::ladder(64);
  CHECK(many[0] == 64);
  CHECK(many[1] == 55);
  CHECK(many.back() == 1);
  for (std::size_t i = 1; i < many.size(); ++i) CHECK(many[i] < many[i - 1]);
}

TEST_CASE("adaptive threads: a quiet machine runs every pass with all threads") {
  AdaptiveThreads adaptive;
  const Machine quiet{[](int t) { return 1.0 / t; }, false};
  CHECK(run(adaptive, quiet, 2, 1000) == std::map<int, int>{{2, 1000}});
}

TEST_CASE("adaptive threads: a contended core sends the passes to fewer threads, and back when it frees") {
  AdaptiveThreads adaptive;
  // Two threads with one core busy elsewhere: three times slower than one (as measured for small passes).
  const Machine busy{[](int t) { return t == 2 ? 0.003 : 0.001; }, true};
  double total = 0;
  auto counts = run(adaptive, busy, 2, 1000, &total);
  CHECK(counts[1] > 950);
  // Probes at growing intervals cost little beside the 1 s that one thread takes throughout.
  CHECK(total < 1.05);

  const Machine quiet{[](int t) { return 0.0006 / t; }, false};
  counts = run(adaptive, quiet, 2, 1000);
  CHECK(counts[2] > 900);
}

TEST_CASE("adaptive threads: many cores with one busy find all but one") {
  AdaptiveThreads adaptive;
  // Eight cores, one shared: eight threads wait on the one that shares it; seven run free.
  const Machine busy{[](int t) { return t == 8 ? 2.0 / 8 : 1.0 / t; }, true};
  auto counts = run(adaptive, busy, 8, 500);
  CHECK(counts[7] > 400);
}

TEST_CASE("adaptive threads: a change in the allowed count starts over from it") {
  AdaptiveThreads adaptive;
  const Machine busy{[](int t) { return t == 2 ? 0.003 : 0.001; }, true};
  run(adaptive, busy, 2, 100);
  CHECK(adaptive.next(4) == 4);
  CHECK(adaptive.next(1) == 1);
}
