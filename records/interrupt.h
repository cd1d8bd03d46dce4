#pragma once
// Ctrl-C (SIGINT) during a streaming command. While the output holds only complete, flushed records
// (reading input, computing a batch), SIGINT ends the program at once with status 130: nothing is
// lost but unfinished work. While records are being written, it only raises a flag; the command
// finishes the write, flushes, checks interrupted() and returns 130 itself.
namespace bertkit::records {

inline constexpr int kInterruptedExitCode = 130;  // 128 + SIGINT, as shells report it

// The signal handlers below are process-wide: a guard is neither copied nor moved.
struct SignalScope {
  SignalScope() = default;
  SignalScope(const SignalScope&) = delete;
  SignalScope& operator=(const SignalScope&) = delete;
};

// Installs the handler for its lifetime (the previous one comes back after).
class InterruptGuard : SignalScope {
 public:
  InterruptGuard();
  ~InterruptGuard();
};

// While a prompt waits for a line: SIGINT interrupts the blocking read (no SA_RESTART) and only
// raises the flag that interrupted() reports, so the prompt can drop the line and ask again as shells
// do. The flag is cleared on entry; the previous handlers (SIGINT, SIGALRM) come back after.
class LineReadInterrupt : SignalScope {
 public:
  LineReadInterrupt();
  ~LineReadInterrupt();
};

// Whether the output is consistent now (SIGINT may end the program on the spot).
void set_output_consistent(bool consistent);
bool interrupted();

// Marks the output inconsistent for a scope (writing and flushing a batch).
class WritingScope {
 public:
  WritingScope() { set_output_consistent(false); }
  ~WritingScope() { set_output_consistent(true); }
  WritingScope(const WritingScope&) = delete;
  WritingScope& operator=(const WritingScope&) = delete;
};

}  // namespace bertkit::records
