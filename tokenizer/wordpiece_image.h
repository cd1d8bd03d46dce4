#pragma once
// A compiled WordPiece model: the tables every start builds from the vocabulary (the token index and
// the two prefix tries, ~20 M instructions and a few MB of fresh memory), written once by `convert`
// into the model file (and at build time for the built-in vocabulary) and used where they lie in its
// map. The vocabulary itself stays in vocab.txt.
#include "tokenizer/prefix_trie.h"
#include "tokenizer/token_index.h"

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <string_view>

namespace bertkit::tok {

class Tokenizer;

struct WordPieceTables {
  std::uint32_t vocab_size = 0;
  std::string continuing_subword_prefix;  // what the continuation trie was built for
  TokenIndex index;
  PrefixTrie initial, continuations;
};

// The tables of a tokenizer whose vocabulary came from vocab.txt, ending with a checksum of the image
// and of that vocabulary.
std::string write_wordpiece_image(const Tokenizer& tokenizer);
// nullopt for an image in another format version (the tables are then built as usual); BadInput naming
// `where` when the image is corrupt. The tables view `bytes` where they can, holding `keep` (what keeps
// the bytes alive; null: they are copied).
std::optional<WordPieceTables> read_wordpiece_image(std::string_view bytes, std::shared_ptr<const void> keep,
                                                    std::string_view where);
// Whether an image is in this bertkit's format version (any other is ignored: the tables are then built
// at load).
bool wordpiece_image_current(std::string_view bytes);
class Vocab;
// Whether the checksum at the end of a read image holds for its bytes and `vocab`: it is neither damaged
// nor built from another vocabulary. Apart from read_wordpiece_image so that fuzzing reaches the tables.
bool wordpiece_image_matches(std::string_view bytes, const Vocab& vocab);

}  // namespace bertkit::tok
