#pragma once
// Where a pass's time goes, op by op (`bertkit bench --profile`). While profiling is on, each op adds its
// wall time under its name; ops are synchronous (a oneDNN primitive is waited for), so the times add up
// to the pass but for the gaps between ops. Off, an op pays one relaxed load and a branch.
#include <atomic>
#include <chrono>
#include <cstdint>
#include <string>
#include <vector>

namespace bertkit::core {

struct OpTime {
  std::string name;
  double seconds = 0;
  std::int64_t calls = 0;
};

namespace op_profile_detail {
inline std::atomic<bool> on{false};
void add(const char* op, std::int64_t k, std::int64_t n, const char* type, double seconds);
}  // namespace op_profile_detail

void set_op_profiling(bool on);
// The times added since the last call (and clears them), the costliest first.
std::vector<OpTime> take_op_times();

// Times its own lifetime as one call of the op `op` (with the matmul's k×n and compute type, when given).
class ProfiledOp {
 public:
  explicit ProfiledOp(const char* op, std::int64_t k = 0, std::int64_t n = 0, const char* type = nullptr)
      : op_(op_profile_detail::on.load(std::memory_order_relaxed) ? op : nullptr), k_(k), n_(n), type_(type) {
    if (op_) start_ = std::chrono::steady_clock::now();
  }
  ~ProfiledOp() {
    if (op_)
      op_profile_detail::add(op_, k_, n_, type_,
                             std::chrono::duration<double>(std::chrono::steady_clock::now() - start_).count());
  }
  ProfiledOp(const ProfiledOp&) = delete;
  ProfiledOp& operator=(const ProfiledOp&) = delete;

 private:
  const char* op_;
  std::int64_t k_, n_;
  const char* type_;
  std::chrono::steady_clock::time_point start_;
};

}  // namespace bertkit::core
