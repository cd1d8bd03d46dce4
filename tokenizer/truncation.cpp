#include "tokenizer/truncation.h"

#include "core/error.h"

#include <algorithm>
#include <utility>
#include <vector>

namespace bertkit::tok {

TruncationStrategy parse_truncation_strategy(std::string_view name) {
  if (name == "longest_first") return TruncationStrategy::LongestFirst;
  if (name == "only_first") return TruncationStrategy::OnlyFirst;
  if (name == "only_second") return TruncationStrategy::OnlySecond;
  usage_error("unknown truncation strategy '{}' (expected longest_first, only_first or only_second)", name);
}

namespace {

Encoding slice(const Encoding& e, std::size_t from, std::size_t to) {
  Encoding out;
  out.reserve(to - from);
  out.append(e, from, to);
  return out;
}

// Removes n tokens from one end, without windows.
void drop(Encoding& e, std::size_t n, Side side) {
  std::size_t keep = e.size() - std::min(n, e.size());
  Encoding kept = side == Side::Right ? slice(e, 0, keep) : slice(e, e.size() - keep, e.size());
  e = std::move(kept);
}

// only_first / only_second: the one text that is cut, refused when it cannot lose to_remove tokens and
// keep one.
Encoding& only_target(Encoding& a, Encoding* b, std::size_t to_remove, TruncationStrategy strategy) {
  bool first = strategy == TruncationStrategy::OnlyFirst;
  if (!first && !b) usage_error("truncation only_second needs a pair of texts");
  Encoding& target = first ? a : *b;
  if (target.size() <= to_remove)
    bad_input("the {} text is too short to truncate: {} tokens must go but it has {}", first ? "first" : "second",
              to_remove, target.size());
  return target;
}

}  // namespace

void truncate_encoding(Encoding& e, std::size_t max_len, std::size_t stride, Side side) {
  const std::size_t len = e.size();
  if (max_len >= len) return;
  if (max_len == 0) {
    Encoding all = std::move(e);
    e = Encoding{};
    e.overflowing.push_back(std::move(all));
    return;
  }
  if (stride >= max_len)
    usage_error("the stride ({}) must be smaller than the room left for text in a window ({})", stride, max_len);
  const std::size_t step = max_len - stride;
  std::vector<std::pair<std::size_t, std::size_t>> parts;
  if (side == Side::Right) {
    for (std::size_t start = 0; start < len; start += step) {
      std::size_t stop = std::min(start + max_len, len);
      parts.emplace_back(start, stop);
      if (stop == len) break;
    }
  } else {
    for (std::size_t last = len; last > 0; last = last > step ? last - step : 0) {
      std::size_t stop = last;
      std::size_t start = stop < max_len ? 0 : stop - max_len;
      parts.emplace_back(start, stop);
      if (start == 0) break;
    }
  }
  Encoding result = slice(e, parts[0].first, parts[0].second);
  for (std::size_t k = 1; k < parts.size(); ++k) result.overflowing.push_back(slice(e, parts[k].first, parts[k].second));
  e = std::move(result);
}

void truncate_rust(Encoding& a, Encoding* b, std::size_t budget, const TruncationParams& p) {
  std::size_t total = a.size() + (b ? b->size() : 0);
  if (budget == 0) {
    truncate_encoding(a, 0, p.stride, p.side);
    if (b) truncate_encoding(*b, 0, p.stride, p.side);
    return;
  }
  if (total <= budget) return;
  std::size_t to_remove = total - budget;
  switch (p.strategy) {
    case TruncationStrategy::LongestFirst: {
      if (!b) {
        truncate_encoding(a, budget, p.stride, p.side);
        return;
      }
      // Both get half when both must be cut; the odd token goes to the one that was longer (B on a tie).
      std::size_t n1 = a.size(), n2 = b->size();
      bool swap = n1 > n2;
      if (swap) std::swap(n1, n2);
      n2 = n1 > budget ? n1 : std::max(n1, budget - n1);
      if (n1 + n2 > budget) {
        n1 = budget / 2;
        n2 = n1 + budget % 2;
      }
      if (swap) std::swap(n1, n2);
      truncate_encoding(a, n1, p.stride, p.side);
      truncate_encoding(*b, n2, p.stride, p.side);
      return;
    }
    case TruncationStrategy::OnlyFirst:
    case TruncationStrategy::OnlySecond: {
      Encoding& target = only_target(a, b, to_remove, p.strategy);
      truncate_encoding(target, target.size() - to_remove, p.stride, p.side);
      return;
    }
  }
}

void truncate_python(Encoding& a, Encoding* b, std::size_t budget, const TruncationParams& p) {
  std::size_t total = a.size() + (b ? b->size() : 0);
  if (total <= budget) return;
  std::size_t to_remove = total - budget;
  switch (p.strategy) {
    case TruncationStrategy::LongestFirst: {
      if (!b) {
        drop(a, to_remove, p.side);
        return;
      }
      // One token at a time from the longer text, from B on a tie.
      std::size_t la = a.size(), lb = b->size();
      std::size_t first = std::min(la > lb ? la - lb : lb - la, to_remove);
      std::size_t second = to_remove - first;
      std::size_t from_a, from_b;
      if (la > lb) {
        from_a = first + second / 2;
        from_b = second - second / 2;
      } else {
        from_a = second / 2;
        from_b = first + second - second / 2;
      }
      drop(a, from_a, p.side);
      drop(*b, from_b, p.side);
      return;
    }
    case TruncationStrategy::OnlyFirst:
    case TruncationStrategy::OnlySecond:
      drop(only_target(a, b, to_remove, p.strategy), to_remove, p.side);
      return;
  }
}

}  // namespace bertkit::tok
