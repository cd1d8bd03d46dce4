#pragma once
// The lines of an interactive prompt, with libedit's line editing and history when it can be loaded.
// libedit is opened when a prompt starts instead of being linked: linking it (with libtinfo, libbsd
// and libmd) cost every bertkit call about a millisecond at start-up, for a prompt few calls open.
// Without it, lines are read as they come, without editing.
#include <cstdio>
#include <initializer_list>
#include <optional>
#include <string>

namespace bertkit::records {

class LineEditor {
 public:
  // The first of `libraries` that loads and has the functions is used; `in` and `out` serve when none
  // does (libedit itself reads the terminal).
  explicit LineEditor(std::initializer_list<const char*> libraries = {"libedit.so.2", "libedit.so"}, std::FILE* in = stdin,
                      std::FILE* out = stdout);
  bool editing() const { return readline_ != nullptr; }
  // The next line, without its newline; nullopt at the end of input (Ctrl-D). Ctrl-C drops the line
  // being typed and prompts again.
  std::optional<std::string> read(const char* prompt);
  void remember(const std::string& line);  // for the history (up arrow)

 private:
  std::optional<std::string> read_once(const char* prompt);

  char* (*readline_)(const char*) = nullptr;
  int (*add_history_)(const char*) = nullptr;
  std::FILE* in_;
  std::FILE* out_;
};

}  // namespace bertkit::records
