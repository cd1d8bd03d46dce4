#pragma once
// What `bertkit serve` reports at GET /metrics, in Prometheus' text format: requests by route and
// status, their latency, the batches (records, tokens, time) and the queue's depth.
#include "commands/serve_batcher.h"

#include <array>
#include <cstdint>
#include <map>
#include <mutex>
#include <string>
#include <utility>

namespace bertkit::cmd {

class ServeMetrics {
 public:
  void request(const std::string& route, int status, double seconds);
  void batch(const BatchReport& report);
  // The text of every metric; `queue_depth`: requests waiting or computing now.
  std::string text(std::size_t queue_depth) const;

 private:
  // A cumulative histogram over fixed upper bounds (+Inf last).
  template <std::size_t N>
  struct Histogram {
    std::array<std::uint64_t, N + 1> counts{};
    double sum = 0;
    std::uint64_t count = 0;
    void add(double x, const std::array<double, N>& bounds);
  };
  static constexpr std::array<double, 12> kSeconds = {0.001, 0.0025, 0.005, 0.01, 0.025, 0.05,
                                                      0.1,   0.25,   0.5,   1,    2.5,   10};
  static constexpr std::array<double, 10> kSizes = {1, 2, 4, 8, 16, 32, 64, 128, 256, 512};

  mutable std::mutex mutex_;
  std::map<std::pair<std::string, int>, std::uint64_t> requests_;  // (route, status) -> count
  std::map<std::string, Histogram<12>> latency_;                   // by route
  Histogram<10> batch_requests_, batch_records_;
  Histogram<12> batch_seconds_;
  std::uint64_t batches_ = 0, records_ = 0;
  std::int64_t tokens_ = 0;
};

}  // namespace bertkit::cmd
