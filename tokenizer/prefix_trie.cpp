#include "tokenizer/prefix_trie.h"

#include <algorithm>

namespace bertkit::tok {

void PrefixTrie::build(const std::vector<std::pair<std::string_view, std::int32_t>>& entries) {
  // Sorted keys make every node a contiguous range of keys sharing a prefix, and its children the
  // sub-ranges that agree on the next byte: the trie is laid out breadth-first without allocating a
  // node at a time (start-up builds two of these for every command).
  std::vector<std::pair<std::string_view, std::int32_t>> keys;
  keys.reserve(entries.size());
  for (const auto& e : entries)
    if (!e.first.empty()) keys.push_back(e);
  // Sorting compares the first eight bytes as one big-endian integer and only looks further on a tie.
  std::vector<std::pair<std::uint64_t, std::uint32_t>> order_by_prefix(keys.size());
  for (std::uint32_t i = 0; i < keys.size(); ++i) {
    std::uint64_t prefix = 0;
    std::string_view k = keys[i].first;
    for (std::size_t b = 0; b < 8; ++b) prefix = (prefix << 8) | (b < k.size() ? static_cast<unsigned char>(k[b]) : 0u);
    order_by_prefix[i] = {prefix, i};
  }
  std::sort(order_by_prefix.begin(), order_by_prefix.end(), [&](const auto& x, const auto& y) {
    if (x.first != y.first) return x.first < y.first;
    return keys[x.second].first < keys[y.second].first;
  });
  {
    std::vector<std::pair<std::string_view, std::int32_t>> sorted;
    sorted.reserve(keys.size());
    for (const auto& [prefix, i] : order_by_prefix) sorted.push_back(keys[i]);
    keys.swap(sorted);
  }

  struct Range {
    std::uint32_t lo, hi, depth;
  };
  nodes_.clear();
  labels_.clear();
  std::fill(std::begin(root_child_), std::end(root_child_), kNone);
  std::vector<Range> order;  // node i covers keys order[i]
  auto add_children = [&](const Range& r) {
    std::uint32_t i = r.lo;
    while (i < r.hi && keys[i].first.size() == r.depth) ++i;  // the key that ends here sorts first
    while (i < r.hi) {
      auto byte = static_cast<unsigned char>(keys[i].first[r.depth]);
      std::uint32_t j = i + 1;
      while (j < r.hi && static_cast<unsigned char>(keys[j].first[r.depth]) == byte) ++j;
      order.push_back({i, j, r.depth + 1});
      labels_.push_back(byte);
      i = j;
    }
  };
  add_children({0, static_cast<std::uint32_t>(keys.size()), 0});
  for (std::uint32_t k = 0; k < order.size(); ++k) root_child_[labels_[k]] = k;
  nodes_.reserve(keys.size() * 3);
  for (std::size_t i = 0; i < order.size(); ++i) {
    Range r = order[i];
    Node n;
    const auto& first = keys[r.lo];
    if (first.first.size() == r.depth) n.id = first.second;
    n.first_child = static_cast<std::uint32_t>(order.size());
    add_children(r);
    n.child_count = static_cast<std::uint32_t>(order.size()) - n.first_child;
    nodes_.push_back(n);
  }
}

}  // namespace bertkit::tok
