#pragma once
// The tokenizer's model: one word, as the pre-tokenizer cut it, into vocabulary pieces. WordPiece is the
// implementation today; byte-level BPE and Unigram fit the same call (a word in, ids with byte spans
// out). Called once per word the word cache has not seen, never per byte.
#include <cstdint>
#include <string_view>
#include <vector>

namespace bertkit::tok {

struct Piece {
  std::int32_t id;
  std::uint32_t begin, end;  // byte span within the word
};

class Model {
 public:
  virtual ~Model() = default;
  // Appends the pieces of `word` (valid UTF-8) to `out`.
  virtual void tokenize(std::string_view word, std::vector<Piece>& out) const = 0;
};

}  // namespace bertkit::tok
