#include "core/ops/op_profile.h"

#include <fmt/format.h>

#include <algorithm>
#include <map>
#include <mutex>

namespace bertkit::core {
namespace {

struct Totals {
  std::mutex mutex;
  std::map<std::string, OpTime> ops;
};

Totals& totals() {
  static Totals instance;
  return instance;
}

}  // namespace

void op_profile_detail::add(const char* op, std::int64_t k, std::int64_t n, const char* type, double seconds) {
  std::string name = op;
  if (k > 0) name += fmt::format(" {}x{}", k, n);
  if (type) name += fmt::format(" {}", type);
  Totals& t = totals();
  std::lock_guard lock(t.mutex);
  OpTime& time = t.ops[name];
  time.name = std::move(name);
  time.seconds += seconds;
  ++time.calls;
}

void set_op_profiling(bool on) { op_profile_detail::on.store(on, std::memory_order_relaxed); }

std::vector<OpTime> take_op_times() {
  Totals& t = totals();
  std::vector<OpTime> times;
  {
    std::lock_guard lock(t.mutex);
    for (auto& [name, time] : t.ops) times.push_back(std::move(time));
    t.ops.clear();
  }
  std::stable_sort(times.begin(), times.end(), [](const OpTime& a, const OpTime& b) { return a.seconds > b.seconds; });
  return times;
}

}  // namespace bertkit::core
