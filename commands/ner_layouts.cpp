#include "commands/ner_layouts.h"

namespace bertkit::cmd {

namespace {

std::string_view slice(std::string_view text, std::size_t begin, std::size_t end) {
  return text.substr(begin, end - begin);
}

}  // namespace

std::string conll_lines(std::string_view text, std::span<const LabelledWord> words) {
  std::string out;
  for (const LabelledWord& w : words) {
    out += slice(text, w.bytes.begin, w.bytes.end);
    out += '\t';
    out += w.label;
    out += '\n';
  }
  out += '\n';
  return out;
}

std::string inline_line(std::string_view text, std::span<const Entity> entities) {
  std::string out;
  std::size_t at = 0;
  for (const Entity& e : entities) {
    out += slice(text, at, e.byte_start);
    out += '[';
    out += e.label;
    out += ' ';
    out += slice(text, e.byte_start, e.byte_end);
    out += ']';
    at = e.byte_end;
  }
  out += text.substr(at);
  out += '\n';
  return out;
}

}  // namespace bertkit::cmd
