#pragma once
// ner's plain-text layouts, a record's lines as they are written: CoNLL-2003's word per line and the
// text with its entities marked inline.
#include "commands/ner_entities.h"
#include "commands/ner_words.h"

#include <span>
#include <string>
#include <string_view>

namespace bertkit::cmd {

// WORD<TAB>LABEL per word, the word as the text writes it, then the blank line that ends a sentence.
std::string conll_lines(std::string_view text, std::span<const LabelledWord> words);

// The text, each entity written "[LABEL entity text]", then a newline: one line, its tabs, newlines,
// carriage returns and backslashes written as TSV writes them (\t, \n, \r, \\). `entities` in text
// order, not overlapping (as text_entities gives them).
std::string inline_line(std::string_view text, std::span<const Entity> entities);

}  // namespace bertkit::cmd
