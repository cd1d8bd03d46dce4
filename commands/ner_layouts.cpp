#include "commands/ner_layouts.h"

#include "records/table_writer.h"

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
    records::append_tsv_escaped(out, slice(text, at, e.byte_start));
    out += '[';
    records::append_tsv_escaped(out, e.label);
    out += ' ';
    records::append_tsv_escaped(out, slice(text, e.byte_start, e.byte_end));
    out += ']';
    at = e.byte_end;
  }
  records::append_tsv_escaped(out, text.substr(at));
  out += '\n';
  return out;
}

}  // namespace bertkit::cmd
