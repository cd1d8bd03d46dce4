#include "cli/openmp_wait.h"

#include <sched.h>
#include <unistd.h>

#include <cstdio>
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

// Whether another task is runnable now (/proc/loadavg's count of running tasks includes this one). On an
// idle machine libgomp's spinning takes nothing from anyone and answers barriers fastest, and the
// re-execution (~8 ms of loading again) would be the only cost: a one-sentence embed took 30 ms with it
// and 22 ms without.
bool others_running() {
  std::FILE* f = std::fopen("/proc/loadavg", "r");
  if (!f) return true;
  double one, five, fifteen;
  int running = 0, total = 0;
  const int read = std::fscanf(f, "%lf %lf %lf %d/%d", &one, &five, &fifteen, &running, &total);
  std::fclose(f);
  return read != 5 || running > 1;
}

}  // namespace

void set_openmp_wait_policy(char** argv) {
  if (std::getenv("OMP_WAIT_POLICY") || std::getenv("GOMP_SPINCOUNT") || single_threaded(argv) || !others_running())
    return;
  if (setenv("GOMP_SPINCOUNT", kSpinCount, 0) != 0) return;
  execv("/proc/self/exe", argv);  // only returns on failure
  unsetenv("GOMP_SPINCOUNT");
}

}  // namespace bertkit::cli
