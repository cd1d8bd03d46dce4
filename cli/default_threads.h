#pragma once
// The thread count when --threads is not given. libgomp already starts from the cores the process may
// run on (sched_getaffinity: taskset, cpuset cgroups); a container's CPU quota (cgroup v2 cpu.max, v1
// cpu.cfs_quota_us) is not in that mask, and threads past the quota are throttled in the middle of
// barriers. So: the quota's whole CPUs (at least one) when fewer than the cores allowed.
#include <optional>
#include <string_view>

namespace bertkit::cli {

// Whole CPUs of a quota file's text: cgroup v2 "QUOTA PERIOD" or "max PERIOD" (`period` empty), or a
// v1 quota with its period file's text; nothing for no quota or text it does not understand.
std::optional<int> quota_cpus(std::string_view quota, std::string_view period = {});

// Sets OpenMP's thread count to the quota's CPUs when that is fewer than it has; OMP_NUM_THREADS, set
// by the user, is left alone.
void limit_threads_to_cpu_quota();

}  // namespace bertkit::cli
