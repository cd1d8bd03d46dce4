#include "records/interrupt.h"

#include <signal.h>
#include <sys/time.h>
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

// A Ctrl-C that comes while the line editor is busy between two reads interrupts no read, and the
// next one would wait for a key: SIGALRM every 20 ms interrupts whichever read comes next.
void raise_flag(int) {
  g_interrupted.store(true);
  const itimerval every{{0, 20000}, {0, 20000}};
  ::setitimer(ITIMER_REAL, &every, nullptr);
}

void wake(int) {}

// The handlers LineReadInterrupt replaced (one prompt reads at a time).
struct sigaction g_sigint_before_line_read {};
struct sigaction g_sigalrm_before_line_read {};

void install(int signal, void (*handler)(int), struct sigaction* previous) {
  struct sigaction action {};
  action.sa_handler = handler;
  sigemptyset(&action.sa_mask);
  ::sigaction(signal, &action, previous);
}

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
  install(SIGALRM, wake, &g_sigalrm_before_line_read);
  install(SIGINT, raise_flag, &g_sigint_before_line_read);
}

LineReadInterrupt::~LineReadInterrupt() {
  ::sigaction(SIGINT, &g_sigint_before_line_read, nullptr);
  const itimerval off{};
  ::setitimer(ITIMER_REAL, &off, nullptr);
  ::sigaction(SIGALRM, &g_sigalrm_before_line_read, nullptr);
}

void set_output_consistent(bool consistent) { g_consistent.store(consistent); }

bool interrupted() { return g_interrupted.load(); }

}  // namespace bertkit::records
