#include "commands/ner_prompt.h"

#include "commands/ner_layouts.h"
#include "commands/prompt_io.h"
#include "core/error.h"
#include "core/setting.h"
#include "tokenizer/utf8.h"

#include <fmt/format.h>

#include <algorithm>
#include <string>

namespace bertkit::cmd {

namespace {

// The text with its entities marked (not for tokens: --aggregation none), then a line per entity.
std::string entity_table(std::string_view text, const std::vector<Entity>& entities, Aggregation aggregation) {
  if (entities.empty()) return "(no entities)\n";
  std::string out = aggregation == Aggregation::None ? "" : inline_line(text, entities);
  std::size_t width = 0;
  for (const Entity& e : entities) width = std::max(width, tok::count_code_points(e.label));
  for (const Entity& e : entities) {
    const std::size_t pad = width - tok::count_code_points(e.label);
    out += fmt::format("  {}{}  {:.4f}  {}  ({}-{})\n", e.label, std::string(pad, ' '), e.score,
                       std::string_view(text).substr(e.byte_start, e.byte_end - e.byte_start), e.start, e.end);
  }
  return out;
}

void tag(NerPrompt& p, std::string_view line) {
  try {
    std::string text;
    tok::repair_utf8(line, text);
    tok::Encoding encoding = p.tokenizer.encode(text, std::nullopt, p.tokenize.encode);
    std::vector<const tok::Encoding*> windows{&encoding};
    for (const tok::Encoding& o : encoding.overflowing) windows.push_back(&o);
    const auto logits = p.classifier.logits(windows, p.limits);
    const auto entities = text_entities(p.tokenizer, text, windows, logits, p.classifier.config().id2label, p.settings);
    say(entity_table(text, entities, p.settings.aggregation));
    if (encoding.truncated && encoding.overflowing.empty())
      say(fmt::format("(the text past the model's maximum length was not read: {} reads it)\n", Setting::Stride));
  } catch (const Error& e) {
    if (e.kind() != ErrorKind::BadInput) throw;
    say(fmt::format("error: {}\n", e.what()));
  }
}

}  // namespace

int run_ner_prompt(NerPrompt p) {
  say("Type a sentence to see its entities; Ctrl-C drops the line; Ctrl-D or :q leaves.\n");
  return run_prompt("ner> ", [&](std::string_view text) {
    if (text == ":q" || text == ":quit") return false;
    tag(p, text);
    return true;
  });
}

}  // namespace bertkit::cmd
