#include "commands/ner_words.h"

#include <algorithm>
#include <map>

namespace bertkit::cmd {

Aggregation word_aggregation(Aggregation aggregation) {
  return aggregation == Aggregation::None || aggregation == Aggregation::Simple ? Aggregation::First : aggregation;
}

std::vector<LabelledWord> text_words(std::span<const tok::Encoding* const> windows,
                                     std::span<const std::vector<float>> logits, std::span<const std::string> id2label,
                                     const NerSettings& settings) {
  const std::size_t labels = id2label.size();
  const Aggregation aggregation = word_aggregation(settings.aggregation);
  std::map<std::int32_t, LabelledWord> words;  // by word index: text order
  for (std::size_t k = 0; k < windows.size(); ++k) {
    const tok::Encoding& w = *windows[k];
    const std::vector<float> probabilities = label_probabilities(logits[k], labels);
    for (std::size_t i = 0; i < w.size();) {
      if (w.special_mask[i] || w.words[i] < 0) {
        ++i;
        continue;
      }
      std::size_t end = i + 1;
      while (end < w.size() && !w.special_mask[end] && w.words[end] == w.words[i]) ++end;
      auto [at, added] = words.try_emplace(w.words[i]);
      LabelledWord& word = at->second;
      if (added) {
        std::vector<std::span<const float>> tokens;
        for (std::size_t t = i; t < end; ++t) tokens.push_back(std::span(probabilities).subspan(t * labels, labels));
        word.bytes = {w.offsets[i].begin, w.offsets[end - 1].end};
        word.label = id2label[best_label(word_probabilities(tokens, aggregation))];
        const auto& ignored = settings.ignore_labels;
        // assign(1, 'O') rather than = "O": GCC 12 takes the inlined copy of a literal for an overlapping
        // one (-Wrestrict) when this file shares a unity batch with ner_layouts.cpp.
        if (std::find(ignored.begin(), ignored.end(), word.label) != ignored.end()) word.label.assign(1, 'O');
      } else {
        word.bytes.end = std::max(word.bytes.end, w.offsets[end - 1].end);
      }
      i = end;
    }
  }
  std::vector<LabelledWord> out;
  out.reserve(words.size());
  for (auto& [index, word] : words) out.push_back(std::move(word));
  return out;
}

}  // namespace bertkit::cmd
