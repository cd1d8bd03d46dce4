#include "tokenizer/prefix_trie.h"

#include <algorithm>
#include <map>
#include <memory>

namespace bertkit::tok {

namespace {
struct BuildNode {
  std::int32_t id = -1;
  std::map<unsigned char, std::unique_ptr<BuildNode>> children;
};
}  // namespace

void PrefixTrie::build(const std::vector<std::pair<std::string_view, std::int32_t>>& entries) {
  BuildNode root;
  for (const auto& [key, id] : entries) {
    if (key.empty()) continue;
    BuildNode* n = &root;
    for (char c : key) {
      auto& slot = n->children[static_cast<unsigned char>(c)];
      if (!slot) slot = std::make_unique<BuildNode>();
      n = slot.get();
    }
    n->id = id;
  }
  nodes_.clear();
  labels_.clear();
  std::fill(std::begin(root_child_), std::end(root_child_), kNone);
  // Breadth-first: the children of a node are consecutive, so one index and a count find them.
  std::vector<const BuildNode*> order;
  for (const auto& [byte, child] : root.children) {
    root_child_[byte] = static_cast<std::uint32_t>(order.size());
    order.push_back(child.get());
    labels_.push_back(byte);
  }
  for (std::size_t i = 0; i < order.size(); ++i) {
    const BuildNode* b = order[i];
    Node n;
    n.id = b->id;
    n.first_child = static_cast<std::uint32_t>(order.size());
    n.child_count = static_cast<std::uint32_t>(b->children.size());
    for (const auto& [byte, child] : b->children) {
      order.push_back(child.get());
      labels_.push_back(byte);
    }
    nodes_.push_back(n);
  }
}

}  // namespace bertkit::tok
