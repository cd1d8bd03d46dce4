#pragma once
// The score modifier's steps inside every attention path (the tiled kernels and the sgemm one), for one
// head of one sequence: which keys a block of queries needs (a sliding window skips the rest) and what
// is added to their scores. See ScoreModifier (core/ops/attention.h).
#include "core/ops/attention.h"
#include "core/ops/simd.h"

#include <algorithm>
#include <cstdint>
#include <limits>

namespace bertkit::core {

// One head's part of a ScoreModifier, for one sequence.
struct HeadScores {
  const float* relative = nullptr;  // the head's relative row at relative position 0, or null
  std::int64_t window = -1;         // as ScoreModifier::window
  const ScoreTerm* term = nullptr;  // null: none
  int head = 0;
  std::int64_t first_row = 0;  // the sequence's first row in the packed batch
  std::int64_t length = 0;     // the sequence's tokens
  std::int64_t attended = 0;   // keys 0 .. attended−1 are attended to (ScoreModifier::attended_keys)
};

// The keys [begin, end) that queries first .. first+rows can attend to: all of the sequence, or with a
// window the ones within it of some query, `begin` rounded down to a multiple of `align` (the kernels'
// column tiles). Keys in the range but outside a query's window are masked by modify_scores.
struct KeyRange {
  std::int64_t begin, end;
};
inline KeyRange key_range(const HeadScores& h, std::int64_t first, std::int64_t rows, std::int64_t align) {
  if (h.window < 0) return {0, h.attended};
  const std::int64_t end = std::min(h.attended, first + rows + h.window);
  const std::int64_t begin = std::max<std::int64_t>(0, first - h.window) / align * align;
  return {std::min(begin, end), end};
}

// Adds the modifier of queries first .. first+rows and keys key .. key+keys to their scores (rows `stride`
// floats apart, column 0 = key `key`): the relative row, then the family's term, then −∞ outside the
// window. Inlined into each kernel, so it is vectorised for that kernel's instruction set.
BK_VECTOR_BODY void modify_scores(const HeadScores& h, std::int64_t first, std::int64_t rows, std::int64_t key,
                                  std::int64_t keys, float* scores, std::int64_t stride) {
  if (h.relative)
    for (std::int64_t r = 0; r < rows; ++r) {
      const float* b = h.relative + key - (first + r);  // key key+j of query first+r: relative key+j − first − r
      float* s = scores + r * stride;
      for (std::int64_t j = 0; j < keys; ++j) s[j] += b[j];
    }
  if (h.term) h.term->add(h.term->context, h.head, h.first_row, h.length, first, rows, key, keys, scores, stride);
  if (h.window < 0) return;
  constexpr float kMasked = -std::numeric_limits<float>::infinity();
  for (std::int64_t r = 0; r < rows; ++r) {
    const std::int64_t query = first + r;
    float* s = scores + r * stride;
    const std::int64_t before = std::clamp<std::int64_t>(query - h.window - key, 0, keys);
    const std::int64_t after = std::clamp<std::int64_t>(query + h.window + 1 - key, 0, keys);
    for (std::int64_t j = 0; j < before; ++j) s[j] = kMasked;
    for (std::int64_t j = after; j < keys; ++j) s[j] = kMasked;
  }
}

}  // namespace bertkit::core
