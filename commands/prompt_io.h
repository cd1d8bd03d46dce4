#pragma once
// What the interactive prompts (fill-mask, ner) share: the loop that reads lines, a typed line without
// the blanks around it, and text shown at once.
#include <functional>
#include <string>
#include <string_view>

namespace bertkit::cmd {

std::string_view trim_line(std::string_view line);

// Written to stdout and flushed: the prompt that follows must not come first.
void say(const std::string& text);

// Reads lines after `prompt` (line editing, history) and hands each that is not blank, trimmed, to
// `on_line`, which returns false to leave; Ctrl-D leaves too. Ctrl-C drops the line being typed; while
// `on_line` works, it ends the program as in any other run. Returns the exit status.
int run_prompt(const char* prompt, const std::function<bool(std::string_view)>& on_line);

}  // namespace bertkit::cmd
