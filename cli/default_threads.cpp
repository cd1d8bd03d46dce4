#include "cli/default_threads.h"

#include <omp.h>

#include <algorithm>
#include <charconv>
#include <cstdlib>
#include <fstream>
#include <sstream>
#include <string>

namespace bertkit::cli {

namespace {

std::optional<long long> number(std::string_view s) {
  while (!s.empty() && (s.back() == '\n' || s.back() == ' ')) s.remove_suffix(1);
  long long x = 0;
  auto [end, ec] = std::from_chars(s.data(), s.data() + s.size(), x);
  if (ec != std::errc() || end != s.data() + s.size()) return std::nullopt;
  return x;
}

std::string read_small(const std::string& path) {
  std::ifstream in(path);
  std::ostringstream text;
  text << in.rdbuf();
  return text.str();
}

// The process's cgroup path for v2 ("0::PATH") or v1's cpu controller ("N:cpu,cpuacct:PATH").
std::string cgroup_path(std::string_view version) {
  std::ifstream in("/proc/self/cgroup");
  for (std::string line; std::getline(in, line);) {
    const auto a = line.find(':'), b = line.find(':', a + 1);
    if (a == std::string::npos || b == std::string::npos) continue;
    const std::string_view controllers = std::string_view(line).substr(a + 1, b - a - 1);
    const bool v2 = line.compare(0, a, "0") == 0 && controllers.empty();
    const bool v1_cpu = controllers == "cpu" || controllers.starts_with("cpu,") || controllers.ends_with(",cpu") ||
                        controllers.find(",cpu,") != std::string_view::npos;
    if ((version == "v2" && v2) || (version == "v1" && v1_cpu)) return line.substr(b + 1);
  }
  return {};
}

std::optional<int> cgroup_quota_cpus() {
  // The process's own cgroup, else the root of the mount (a container sees its cgroup there).
  for (const std::string& dir : {"/sys/fs/cgroup" + cgroup_path("v2"), std::string("/sys/fs/cgroup")}) {
    const std::string text = read_small(dir + "/cpu.max");
    if (!text.empty()) return quota_cpus(text);
  }
  for (const std::string root : {"/sys/fs/cgroup/cpu", "/sys/fs/cgroup/cpu,cpuacct"}) {
    for (const std::string& dir : {root + cgroup_path("v1"), root}) {
      const std::string quota = read_small(dir + "/cpu.cfs_quota_us");
      if (!quota.empty()) return quota_cpus(quota, read_small(dir + "/cpu.cfs_period_us"));
    }
  }
  return std::nullopt;
}

}  // namespace

std::optional<int> quota_cpus(std::string_view quota, std::string_view period) {
  if (period.empty()) {  // v2: "QUOTA PERIOD"
    const auto space = quota.find(' ');
    if (space == std::string_view::npos) return std::nullopt;
    period = quota.substr(space + 1);
    quota = quota.substr(0, space);
  }
  const auto q = number(quota), p = number(period);
  if (!q || !p || *q <= 0 || *p <= 0) return std::nullopt;  // "max" or -1: no quota
  return static_cast<int>(std::max<long long>(1, std::min<long long>(*q / *p, 1 << 16)));
}

void limit_threads_to_cpu_quota() {
  if (std::getenv("OMP_NUM_THREADS")) return;
  const auto cpus = cgroup_quota_cpus();
  if (cpus && *cpus < omp_get_max_threads()) omp_set_num_threads(*cpus);
}

}  // namespace bertkit::cli
