#include "cli/openmp_wait.h"

#include <sched.h>
#include <unistd.h>

#include <cstdlib>
#include <cstring>

namespace bertkit::cli {

namespace {

// One thread has no barrier to wait at: --threads 1, or a process allowed on one CPU only.
bool single_threaded(char** argv) {
  for (char** a = argv; *a; ++a) {
    if (std::strcmp(*a, "--threads=1") == 0) return true;
    if (std::strcmp(*a, "--threads") == 0 && a[1] && std::strcmp(a[1], "1") == 0) return true;
  }
  cpu_set_t cpus;
  return sched_getaffinity(0, sizeof cpus, &cpus) == 0 && CPU_COUNT(&cpus) == 1;
}

}  // namespace

void set_openmp_wait_policy(char** argv) {
  if (std::getenv("OMP_WAIT_POLICY") || std::getenv("GOMP_SPINCOUNT") || single_threaded(argv)) return;
  if (setenv("GOMP_SPINCOUNT", kSpinCount, 0) != 0) return;
  execv("/proc/self/exe", argv);  // only returns on failure
  unsetenv("GOMP_SPINCOUNT");
}

}  // namespace bertkit::cli
