#include "commands/prompt_io.h"

#include "records/interrupt.h"
#include "records/line_editor.h"

#include <cstdio>
#include <optional>

namespace bertkit::cmd {

std::string_view trim_line(std::string_view s) {
  while (!s.empty() && (s.front() == ' ' || s.front() == '\t')) s.remove_prefix(1);
  while (!s.empty() && (s.back() == ' ' || s.back() == '\t' || s.back() == '\r')) s.remove_suffix(1);
  return s;
}

void say(const std::string& text) {
  std::fputs(text.c_str(), stdout);
  std::fflush(stdout);
}

int run_prompt(const char* prompt, const std::function<bool(std::string_view)>& on_line) {
  records::InterruptGuard interrupt;
  records::LineEditor editor;
  for (;;) {
    std::optional<std::string> line = editor.read(prompt);
    if (!line) {  // Ctrl-D
      say("\n");
      return 0;
    }
    std::string_view text = trim_line(*line);
    if (text.empty()) continue;
    editor.remember(*line);
    if (!on_line(text)) return 0;
  }
}

}  // namespace bertkit::cmd
