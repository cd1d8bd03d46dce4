#pragma once
// Small work runs on the calling thread: waking a thread team costs microseconds, far more on a busy
// machine, and the tiny models and short inputs bertkit also runs are all small work.
#include <omp.h>

#include <cstdint>

namespace bertkit::core {

// Multiply-adds below which a matmul or attention call stays on one thread.
constexpr std::int64_t kMinParallelWork = std::int64_t{1} << 20;

// While alive, OpenMP regions opened by this thread (oneDNN's included) use at most `limit` threads.
class ThreadLimit {
 public:
  explicit ThreadLimit(int limit) : saved_(omp_get_max_threads()) {
    if (limit < saved_)
      omp_set_num_threads(limit);
    else
      saved_ = 0;
  }
  ~ThreadLimit() {
    if (saved_ > 0) omp_set_num_threads(saved_);
  }
  ThreadLimit(const ThreadLimit&) = delete;
  ThreadLimit& operator=(const ThreadLimit&) = delete;

 private:
  int saved_;
};

// While alive, OpenMP regions opened by this thread use one thread when `serial`.
class SerialScope : public ThreadLimit {
 public:
  explicit SerialScope(bool serial) : ThreadLimit(serial ? 1 : omp_get_max_threads()) {}
};

}  // namespace bertkit::core
