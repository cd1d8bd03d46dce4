#pragma once
// Choosing answer spans in one window from the model's start and end logits, as transformers'
// question-answering pipeline does (select_starts_ends + decode_spans): logits of tokens that cannot be
// in an answer set to -10000, a softmax per window, the null score p_start[0] * p_end[0] kept, then
// [CLS] zeroed and spans ranked by p_start[s] * p_end[e] for s <= e < s + max_answer_len.
#include <cstdint>
#include <span>
#include <vector>

namespace bertkit::cmd {

struct ScoredSpan {
  std::size_t start = 0, end = 0;  // token indices in the window, end inclusive
  float score = 0;
};

struct WindowSpans {
  std::vector<ScoredSpan> spans;  // best first, at most top_k
  float null_score = 0;           // p_start[0] * p_end[0] before [CLS] is zeroed
};

// `p_mask[i]` = 1 for a token that cannot be in an answer. Only spans of allowed tokens with a
// positive score are returned (the pipeline would pad a short list with zero-score spans of any
// tokens); equal scores keep the order (start, end).
WindowSpans select_spans(std::span<const float> start_logits, std::span<const float> end_logits,
                         std::span<const std::uint8_t> p_mask, std::size_t top_k, std::size_t max_answer_len);

}  // namespace bertkit::cmd
