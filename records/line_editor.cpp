#include "records/line_editor.h"

#include "records/interrupt.h"

#include <dlfcn.h>
#include <editline/readline.h>  // the functions' types, checked against what dlsym finds

#include <cstdlib>
#include <memory>

namespace bertkit::records {

LineEditor::LineEditor(std::initializer_list<const char*> libraries, std::FILE* in, std::FILE* out) : in_(in), out_(out) {
  for (const char* name : libraries) {
    // Never closed: libedit keeps the terminal's state and history until the process ends.
    void* library = dlopen(name, RTLD_NOW | RTLD_LOCAL);
    if (!library) continue;
    auto using_history_fn = reinterpret_cast<decltype(&::using_history)>(dlsym(library, "using_history"));
    auto readline_fn = reinterpret_cast<decltype(&::readline)>(dlsym(library, "readline"));
    auto add_history_fn = reinterpret_cast<decltype(&::add_history)>(dlsym(library, "add_history"));
    if (!using_history_fn || !readline_fn || !add_history_fn) continue;
    using_history_fn();
    readline_ = readline_fn;
    add_history_ = add_history_fn;
    return;
  }
}

std::optional<std::string> LineEditor::read(const char* prompt) {
  for (;;) {
    std::optional<std::string> line;
    {
      LineReadInterrupt ctrl_c;
      line = read_once(prompt);
    }
    if (!interrupted()) return line;
    // Ctrl-C drops the line as shells do: it stays on the screen, a fresh prompt comes below it.
    std::clearerr(in_);
    std::fputs("\n", out_);
    std::fflush(out_);
  }
}

std::optional<std::string> LineEditor::read_once(const char* prompt) {
  if (readline_) {
    std::unique_ptr<char, decltype(&std::free)> line(readline_(prompt), &std::free);
    if (!line) return std::nullopt;
    return std::string(line.get());
  }
  std::fputs(prompt, out_);
  std::fflush(out_);
  std::string line;
  int c;
  while ((c = std::fgetc(in_)) != EOF && c != '\n') line.push_back(static_cast<char>(c));
  if (c == EOF && line.empty()) return std::nullopt;
  return line;
}

void LineEditor::remember(const std::string& line) {
  if (add_history_) add_history_(line.c_str());
}

}  // namespace bertkit::records
