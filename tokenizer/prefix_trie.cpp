#include "tokenizer/prefix_trie.h"

#include "tokenizer/image_io.h"

#include <algorithm>
#include <array>
#include <utility>

namespace bertkit::tok {

void PrefixTrie::build(const std::vector<std::pair<std::string_view, std::int32_t>>& entries) {
  // Sorted keys make every node a contiguous range of keys sharing a prefix, and its children the
  // sub-ranges that agree on the next byte: the trie is laid out breadth-first without allocating a
  // node at a time (start-up builds two of these for every command).
  std::vector<std::pair<std::string_view, std::int32_t>> keys;
  keys.reserve(entries.size());
  for (const auto& e : entries)
    if (!e.first.empty()) keys.push_back(e);
  // Sorted by the first eight bytes as one big-endian integer, with a least-significant-digit radix sort
  // (a comparison sort of 30,000 keys cost more than the rest of start-up's tokenizer work), then
  // keys that agree on those eight bytes sorted among themselves by the whole string.
  std::vector<std::pair<std::uint64_t, std::uint32_t>> order_by_prefix(keys.size()), scratch(keys.size());
  std::array<std::array<std::uint32_t, 256>, 8> counts{};
  for (std::uint32_t i = 0; i < keys.size(); ++i) {
    std::uint64_t prefix = 0;
    std::string_view k = keys[i].first;
    for (std::size_t b = 0; b < 8; ++b) prefix = (prefix << 8) | (b < k.size() ? static_cast<unsigned char>(k[b]) : 0u);
    order_by_prefix[i] = {prefix, i};
    for (std::size_t d = 0; d < 8; ++d) ++counts[d][(prefix >> (8 * d)) & 0xFF];
  }
  for (std::size_t d = 0; d < 8; ++d) {
    auto& count = counts[d];
    if (std::find(count.begin(), count.end(), keys.size()) != count.end()) continue;  // one value: no move
    std::uint32_t next = 0;
    for (auto& c : count) next += std::exchange(c, next);
    for (const auto& entry : order_by_prefix) scratch[count[(entry.first >> (8 * d)) & 0xFF]++] = entry;
    order_by_prefix.swap(scratch);
  }
  for (std::size_t lo = 0; lo < order_by_prefix.size();) {
    std::size_t hi = lo + 1;
    while (hi < order_by_prefix.size() && order_by_prefix[hi].first == order_by_prefix[lo].first) ++hi;
    if (hi - lo > 1)
      std::sort(order_by_prefix.begin() + static_cast<std::ptrdiff_t>(lo), order_by_prefix.begin() + static_cast<std::ptrdiff_t>(hi),
                [&](const auto& x, const auto& y) { return keys[x.second].first < keys[y.second].first; });
    lo = hi;
  }
  {
    std::vector<std::pair<std::string_view, std::int32_t>> sorted;
    sorted.reserve(keys.size());
    for (const auto& [prefix, i] : order_by_prefix) sorted.push_back(keys[i]);
    keys.swap(sorted);
  }

  struct Range {
    std::uint32_t lo, hi, depth;
  };
  std::vector<Node> nodes;
  std::vector<unsigned char> labels;
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
      labels.push_back(byte);
      i = j;
    }
  };
  add_children({0, static_cast<std::uint32_t>(keys.size()), 0});
  for (std::uint32_t k = 0; k < order.size(); ++k) root_child_[labels[k]] = k;
  nodes.reserve(keys.size() * 3);
  for (std::size_t i = 0; i < order.size(); ++i) {
    Range r = order[i];
    Node n;
    const auto& first = keys[r.lo];
    if (first.first.size() == r.depth) n.id = first.second;
    n.first_child = static_cast<std::uint32_t>(order.size());
    add_children(r);
    n.child_count = static_cast<std::uint32_t>(order.size()) - n.first_child;
    nodes.push_back(n);
  }
  nodes_ = ImageTable<Node>(std::move(nodes));
  labels_ = ImageTable<unsigned char>(std::move(labels));
}

void PrefixTrie::write(ImageWriter& out) const {
  out.array(root_child_, 256);
  out.array(nodes_.data(), nodes_.size());
  out.array(labels_.data(), labels_.size());
}

PrefixTrie PrefixTrie::read(ImageReader& in, std::int32_t ids) {
  PrefixTrie t;
  const auto root = in.array<std::uint32_t>(256);
  t.nodes_ = in.table<Node>(std::size_t{1} << 30);
  t.labels_ = in.table<unsigned char>(t.nodes_.size());
  const auto n = static_cast<std::uint64_t>(t.nodes_.size());
  if (root.size() != 256 || t.labels_.size() != n) in.fail("a trie's tables disagree in size");
  for (std::size_t b = 0; b < 256; ++b) {
    if (root[b] != kNone && root[b] >= n) in.fail("a trie's root points outside it");
    t.root_child_[b] = root[b];
  }
  for (const Node& node : t.nodes_)
    if (std::uint64_t{node.first_child} + node.child_count > n || node.id < -1 || node.id >= ids)
      in.fail("a trie node points outside the trie or the vocabulary");
  return t;
}

}  // namespace bertkit::tok
