#pragma once
// What the interactive prompts (fill-mask, ner) share: a typed line without the blanks around it,
// and text shown at once.
#include <string>
#include <string_view>

namespace bertkit::cmd {

std::string_view trim_line(std::string_view line);

// Written to stdout and flushed: the prompt that follows must not come first.
void say(const std::string& text);

}  // namespace bertkit::cmd
