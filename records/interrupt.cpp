#include "records/interrupt.h"

#include <signal.h>
#include <unistd.h>

#include <atomic>
#include <cstddef>

namespace bertkit::records {

namespace {

std::atomic<bool> g_interrupted{false};
std::atomic<bool> g_consistent{true};
// On a terminal the message starts on a line of its own, after the "^C" the terminal echoed; in a
// log file that newline would be a stray empty line. Decided when the guard is installed: isatty()
// is not async-signal-safe.
std::atomic<bool> g_stderr_terminal{false};
struct sigaction g_previous {};

void on_sigint(int) {
  g_interrupted.store(true);
  if (g_consistent.load()) {
    static const char message[] = "\nbertkit: interrupted\n";
    const char* from = g_stderr_terminal.load() ? message : message + 1;
    [[maybe_unused]] auto ignored = ::write(2, from, static_cast<std::size_t>(message + sizeof message - 1 - from));
    ::_exit(kInterruptedExitCode);
  }
}

void raise_flag(int) { g_interrupted.store(true); }

// The handler LineReadInterrupt replaced (one prompt reads at a time).
struct sigaction g_before_line_read {};

static_assert(std::atomic<bool>::is_always_lock_free, "the signal handler needs lock-free flags");

}  // namespace

InterruptGuard::InterruptGuard() {
  g_interrupted.store(false);
  g_consistent.store(true);
  g_stderr_terminal.store(::isatty(2) == 1);
  struct sigaction action {};
  action.sa_handler = on_sigint;
  sigemptyset(&action.sa_mask);
  action.sa_flags = SA_RESTART;
  ::sigaction(SIGINT, &action, &g_previous);
}

InterruptGuard::~InterruptGuard() { ::sigaction(SIGINT, &g_previous, nullptr); }

LineReadInterrupt::LineReadInterrupt() {
  g_interrupted.store(false);
  struct sigaction action {};
  action.sa_handler = raise_flag;
  sigemptyset(&action.sa_mask);
  ::sigaction(SIGINT, &action, &g_before_line_read);
}

LineReadInterrupt::~LineReadInterrupt() { ::sigaction(SIGINT, &g_before_line_read, nullptr); }

void set_output_consistent(bool consistent) { g_consistent.store(consistent); }

bool interrupted() { return g_interrupted.load(); }

}  // namespace bertkit::records
