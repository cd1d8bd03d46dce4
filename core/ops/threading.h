#pragma once
// Small work runs on the calling thread: waking a thread team costs microseconds, far more on a busy
// machine, and the tiny models and short inputs bertkit also runs are all small work.
#include <omp.h>

#include <cstdint>

namespace bertkit::core {

// Multiply-adds below which a matmul or attention call stays on one thread.
constexpr std::int64_t kMinParallelWork = std::int64_t{1} << 20;

// While alive, OpenMP regions opened by this thread (oneDNN's included) use one thread when `serial`.
class SerialScope {
 public:
  explicit SerialScope(bool serial) : saved_(serial ? omp_get_max_threads() : 0) {
    if (serial) omp_set_num_threads(1);
  }
  ~SerialScope() {
    if (saved_ > 0) omp_set_num_threads(saved_);
  }
  SerialScope(const SerialScope&) = delete;
  SerialScope& operator=(const SerialScope&) = delete;

 private:
  int saved_;
};

}  // namespace bertkit::core
