#pragma once
// The words of a text as the tokenizer's pre-tokenizer splits it (Encoding::words) and the label each
// gets from its tokens, for word-per-line output (CoNLL): unlike the pipeline's entities, every word
// is there, labelled with its own B-/I- label.
#include "commands/ner_entities.h"

#include <span>
#include <string>
#include <string_view>
#include <vector>

namespace bertkit::cmd {

struct LabelledWord {
  tok::Offsets bytes;  // the word's span of the text, from its first token's start to its last's end
  std::string label;   // O where the label is one of the ignored labels
};

// none and simple label tokens, not words: their words take the label of `first`.
Aggregation word_aggregation(Aggregation aggregation);

// The words of `text`, read in `windows` (as text_entities reads them), in text order. A word in two
// overlapping windows takes its label from the first; a word cut by a window's end spans all of its
// tokens.
std::vector<LabelledWord> text_words(std::span<const tok::Encoding* const> windows,
                                     std::span<const std::vector<float>> logits, std::span<const std::string> id2label,
                                     const NerSettings& settings);

}  // namespace bertkit::cmd
