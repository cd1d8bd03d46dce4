#include "tokenizer/normalizer_sequence.h"

#include <algorithm>
#include <cstring>
#include <utility>

namespace bertkit::tok {

void SequenceNormalizer::normalize(std::string_view original, std::uint32_t base, NormalizedText& out) const {
  if (steps_.empty()) {
    std::memcpy(out.append_one_to_one(original.size(), base), original.data(), original.size());
    return;
  }
  // Reused on the thread: the loader flattens nested sequences, so no step is itself a sequence.
  thread_local NormalizedText done, next;
  done.clear();
  steps_.front()->normalize(original, base, done);
  for (std::size_t k = 1; k < steps_.size(); ++k) {
    next.clear();
    steps_[k]->normalize(done.text, 0, next);
    next.map_through(done);
    std::swap(done, next);
  }
  out.append_from(done, 0, done.text.size());
}

// Each step keeps a space a space, so the next one also sees the cut just before a space.
bool SequenceNormalizer::independent_across_spaces() const {
  return std::all_of(steps_.begin(), steps_.end(), [](const auto& step) { return step->independent_across_spaces(); }) &&
         std::none_of(steps_.begin() + (steps_.empty() ? 0 : 1), steps_.end(), [](const auto& step) { return step->checks_head(); });
}

bool SequenceNormalizer::cuttable_after(std::string_view head) const {
  return steps_.empty() || steps_.front()->cuttable_after(head);
}

bool SequenceNormalizer::checks_head() const { return !steps_.empty() && steps_.front()->checks_head(); }

}  // namespace bertkit::tok
