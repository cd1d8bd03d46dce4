#pragma once
// A byte trie over a vocabulary, flattened breadth-first so that the often-visited upper levels sit
// together in memory. One walk along a word finds its longest prefix in the vocabulary, which is what
// WordPiece's greedy longest-match-first asks for, without a hash lookup per candidate length.
#include "tokenizer/image_table.h"

#include <algorithm>
#include <cstdint>
#include <string_view>
#include <utility>
#include <vector>

namespace bertkit::tok {

class ImageReader;
class ImageWriter;

class PrefixTrie {
 public:
  void build(const std::vector<std::pair<std::string_view, std::int32_t>>& entries);
  // The built tables, for a compiled tokenizer; read() checks that every index and id is in range
  // (ids below `ids`), so a walk never leaves the tables whatever the image holds, and uses the tables
  // where they lie in the image when it can (see ImageTable).
  void write(ImageWriter& out) const;
  static PrefixTrie read(ImageReader& in, std::int32_t ids);

  struct Match {
    std::uint32_t length = 0;  // 0: no prefix of the text is in the vocabulary
    std::int32_t id = -1;
  };
  // Calls fn(length, id) for every prefix of `text` in the vocabulary, shortest first (what Unigram's
  // lattice asks for).
  template <typename Fn>
  void for_each_prefix(std::string_view text, Fn&& fn) const {
    if (nodes_.empty() || text.empty()) return;
    std::uint32_t node = root_child_[static_cast<unsigned char>(text[0])];
    for (std::size_t i = 0;;) {
      if (node == kNone) return;
      const Node& n = nodes_[node];
      if (n.id >= 0) fn(static_cast<std::uint32_t>(i + 1), n.id);
      if (++i == text.size() || n.child_count == 0) return;
      node = child(n, static_cast<unsigned char>(text[i]));
    }
  }
  Match longest_prefix(std::string_view text) const {
    Match best;
    if (nodes_.empty() || text.empty()) return best;
    std::uint32_t node = root_child_[static_cast<unsigned char>(text[0])];
    for (std::size_t i = 0;;) {
      if (node == kNone) return best;
      const Node& n = nodes_[node];
      if (n.id >= 0) best = {static_cast<std::uint32_t>(i + 1), n.id};
      if (++i == text.size() || n.child_count == 0) return best;
      node = child(n, static_cast<unsigned char>(text[i]));
    }
  }

 private:
  static constexpr std::uint32_t kNone = 0xFFFFFFFF;
  struct Node {
    std::uint32_t first_child = 0;
    std::uint32_t child_count = 0;
    std::int32_t id = -1;
  };
  std::uint32_t child(const Node& n, unsigned char byte) const {
    const unsigned char* labels = labels_.data() + n.first_child;
    if (n.child_count > 16) {
      // Labels ascend (build sorts the keys): the node after a SentencePiece "▁" has a child for
      // most letters, which a scan would walk through at every word.
      const unsigned char* at = std::lower_bound(labels, labels + n.child_count, byte);
      return at != labels + n.child_count && *at == byte ? n.first_child + static_cast<std::uint32_t>(at - labels) : kNone;
    }
    for (std::uint32_t k = 0; k < n.child_count; ++k)
      if (labels[k] == byte) return n.first_child + k;
    return kNone;
  }

  std::uint32_t root_child_[256];
  ImageTable<Node> nodes_;
  ImageTable<unsigned char> labels_;  // labels_[i]: the byte on the edge into node i
};

}  // namespace bertkit::tok
