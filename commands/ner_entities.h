#pragma once
// What transformers 4.33's token-classification pipeline makes of a text's token scores, on its
// fast-tokenizer path: the tokens of each window (special tokens skipped), grouped into words and
// entities by the aggregation strategy, labels in --ignore-labels dropped, then the entities of
// overlapping windows merged (gather_pre_entities, aggregate, group_entities,
// aggregate_overlapping_entities).
#include "tokenizer/tokenizer.h"

#include <cstddef>
#include <cstdint>
#include <span>
#include <string>
#include <string_view>
#include <vector>

namespace bertkit::cmd {

enum class Aggregation { None, Simple, First, Average, Max };

struct Entity {
  std::string label;        // `entity` (none), else `entity_group`
  float score = 0;
  std::int64_t index = -1;  // none only: the token's position in its window ([CLS] = 0)
  std::string word;
  std::size_t start = 0, end = 0;            // code points into the text, end exclusive
  std::size_t byte_start = 0, byte_end = 0;  // the same span in UTF-8 bytes
};

struct NerSettings {
  Aggregation aggregation = Aggregation::None;
  std::vector<std::string> ignore_labels{"O"};
  // The pipeline's slow-tokenizer path (--compat python): it has no offsets, so no token is a subword,
  // an unknown token's word is the token itself, and start and end are written as null.
  bool slow_tokenizer = false;
};

// A window's label probabilities: the softmax of each token's row of logits [window size, labels].
std::vector<float> label_probabilities(std::span<const float> logits, std::size_t labels);

// aggregate_word's probabilities of one word from its tokens': the first token's (first), their mean
// (average) or those of the token with the best score (max).
std::vector<float> word_probabilities(std::span<const std::span<const float>> tokens, Aggregation aggregation);

// numpy's argmax: the first maximum.
std::size_t best_label(std::span<const float> scores);

// The entities of a text read in `windows` (encodings of `text`, byte offsets), each window's raw
// logits [window size, labels] in `logits`; labels named by id2label.
std::vector<Entity> text_entities(const tok::Tokenizer& tokenizer, std::string_view text,
                                  std::span<const tok::Encoding* const> windows,
                                  std::span<const std::vector<float>> logits, std::span<const std::string> id2label,
                                  const NerSettings& settings);

}  // namespace bertkit::cmd
