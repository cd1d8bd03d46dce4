#include "commands/qa_spans.h"

#include "core/error.h"

#include <algorithm>
#include <cmath>

namespace bertkit::cmd {

namespace {

// Masked softmax in float32 as numpy computes it: exp(x - max) / sum.
std::vector<float> masked_softmax(std::span<const float> logits, std::span<const std::uint8_t> p_mask) {
  std::vector<float> p(logits.size());
  for (std::size_t i = 0; i < logits.size(); ++i) p[i] = p_mask[i] ? -10000.0f : logits[i];
  const float max = *std::max_element(p.begin(), p.end());
  double sum = 0;
  for (float& x : p) {
    x = std::exp(x - max);
    sum += x;
  }
  for (float& x : p) x = static_cast<float>(x / sum);
  return p;
}

}  // namespace

WindowSpans select_spans(std::span<const float> start_logits, std::span<const float> end_logits,
                         std::span<const std::uint8_t> p_mask, std::size_t top_k, std::size_t max_answer_len) {
  const std::size_t n = start_logits.size();
  if (end_logits.size() != n || p_mask.size() != n || n == 0)
    runtime_error("span selection: {} start logits, {} end logits, {} mask entries", n, end_logits.size(),
                  p_mask.size());
  std::vector<float> ps = masked_softmax(start_logits, p_mask), pe = masked_softmax(end_logits, p_mask);
  WindowSpans out;
  out.null_score = ps[0] * pe[0];
  ps[0] = pe[0] = 0.0f;

  std::vector<ScoredSpan> all;
  for (std::size_t s = 0; s < n; ++s) {
    if (p_mask[s] || ps[s] == 0.0f) continue;
    for (std::size_t e = s; e < n && e - s < max_answer_len; ++e) {
      if (p_mask[e]) continue;
      float score = ps[s] * pe[e];
      if (score > 0.0f) all.push_back({s, e, score});
    }
  }
  const std::size_t k = std::min(top_k, all.size());
  // Spans were generated in (start, end) order, so a stable ranking keeps that order among ties.
  std::stable_sort(all.begin(), all.end(), [](const ScoredSpan& a, const ScoredSpan& b) { return a.score > b.score; });
  all.resize(k);
  out.spans = std::move(all);
  return out;
}

}  // namespace bertkit::cmd
