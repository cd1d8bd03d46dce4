#include "records/interrupt.h"

#include <signal.h>
#include <unistd.h>

#include <atomic>

namespace bertkit::records {

namespace {

std::atomic<bool> g_interrupted{false};
std::atomic<bool> g_consistent{true};
struct sigaction g_previous {};

void on_sigint(int) {
  g_interrupted.store(true);
  if (g_consistent.load()) {
    static const char message[] = "\nbertkit: interrupted\n";
    [[maybe_unused]] auto ignored = ::write(2, message, sizeof message - 1);
    ::_exit(kInterruptedExitCode);
  }
}

static_assert(std::atomic<bool>::is_always_lock_free, "the signal handler needs lock-free flags");

}  // namespace

InterruptGuard::InterruptGuard() {
  g_interrupted.store(false);
  g_consistent.store(true);
  struct sigaction action {};
  action.sa_handler = on_sigint;
  sigemptyset(&action.sa_mask);
  action.sa_flags = SA_RESTART;
  ::sigaction(SIGINT, &action, &g_previous);
}

InterruptGuard::~InterruptGuard() { ::sigaction(SIGINT, &g_previous, nullptr); }

void set_output_consistent(bool consistent) { g_consistent.store(consistent); }

bool interrupted() { return g_interrupted.load(); }

}  // namespace bertkit::records
