#include "core/model/adaptive_threads.h"

#include <algorithm>
#include <cmath>

namespace bertkit::core {

namespace {

constexpr int kFirstInterval = 4;
constexpr int kMaxInterval = 64;
// A probe must beat the current count by this much: passes vary by a few percent on their own.
constexpr double kBetter = 0.93;
// Weight of a pass in its count's running cost.
constexpr double kSmoothing = 0.3;
// Preemptions per thread-second of passes that count as contention. Measured on 2 cores (minilm-l6
// int8, 2 threads): about 30 on an idle machine (kernel threads), 900 beside a busy loop.
constexpr double kContendedRate = 100;

}  // namespace

std::vector<int> AdaptiveThreads::ladder(int allowed) {
  std::vector<int> counts{std::max(allowed, 1)};
  while (counts.back() > 1) {
    const int n = counts.back();
    counts.push_back(n <= 8 ? n - 1 : std::min(n - 1, static_cast<int>(std::ceil(n * 0.85))));
  }
  return counts;
}

void AdaptiveThreads::reset(int allowed) {
  ladder_ = ladder(allowed);
  cost_.assign(ladder_.size(), 0);
  current_ = 0;
  probing_.reset();
  interval_ = kFirstInterval;
  start_interval();
}

void AdaptiveThreads::start_interval() {
  passes_ = 0;
  preemptions_ = 0;
  thread_seconds_ = 0;
}

std::optional<std::size_t> AdaptiveThreads::probe_rung() {
  const bool contended = thread_seconds_ > 0 && static_cast<double>(preemptions_) / thread_seconds_ >= kContendedRate;
  const bool can_go_down = contended && current_ + 1 < ladder_.size();
  const bool can_go_up = current_ > 0;
  if (can_go_down && (probe_down_next_ || !can_go_up)) {
    probe_down_next_ = false;
    return current_ + 1;
  }
  probe_down_next_ = true;
  if (can_go_up) return current_ - 1;
  return std::nullopt;
}

int AdaptiveThreads::next(int allowed) {
  if (ladder_.empty() || ladder_.front() != allowed) reset(allowed);
  if (ladder_.size() > 1 && cost_[current_] > 0 && passes_ >= interval_) {
    probing_ = probe_rung();
    if (!probing_) start_interval();  // quiet at all threads: look again after another interval
  }
  return ladder_[probing_.value_or(current_)];
}

void AdaptiveThreads::record(const PassMeasure& pass) {
  if (pass.work <= 0 || pass.seconds <= 0) return;
  const double cost = pass.seconds / pass.work;
  preemptions_ += pass.preemptions;
  thread_seconds_ += pass.seconds * pass.threads;
  if (probing_ && ladder_[*probing_] == pass.threads) {
    const std::size_t rung = *probing_;
    probing_.reset();
    cost_[rung] = cost;
    if (cost < cost_[current_] * kBetter) {
      current_ = rung;
      interval_ = kFirstInterval;
    } else {
      interval_ = std::min(interval_ * 2, kMaxInterval);
    }
    start_interval();
    return;
  }
  if (ladder_.empty() || ladder_[current_] != pass.threads) return;
  double& c = cost_[current_];
  // A pass far slower than usual means the machine changed: look around soon.
  if (c > 0 && cost > 1.5 * c) interval_ = kFirstInterval;
  c = c > 0 ? c + kSmoothing * (cost - c) : cost;
  ++passes_;
}

}  // namespace bertkit::core
