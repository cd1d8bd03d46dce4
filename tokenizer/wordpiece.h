#pragma once
// The WordPiece model: greedy longest-match-first over a word, continuation pieces carrying a prefix
// ("##"), and the whole word as the unknown token when it cannot be covered or is too long.
#include "tokenizer/model.h"
#include "tokenizer/prefix_trie.h"
#include "tokenizer/vocab.h"

#include <cstdint>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

namespace bertkit::tok {

struct WordPieceOptions {
  std::string unk_token = "[UNK]";
  std::string continuing_subword_prefix = "##";
  std::size_t max_input_chars_per_word = 100;
};

class ImageWriter;
struct WordPieceTables;

class WordPiece : public Model {
 public:
  // Throws BadInput when the unknown token is not in the vocabulary. The tries are `compiled`'s, shared,
  // when it was built for this continuation prefix, else built here.
  WordPiece(const Vocab& vocab, WordPieceOptions options, std::shared_ptr<const WordPieceTables> compiled = nullptr);

  void tokenize(std::string_view word, std::vector<Piece>& out) const override;
  std::int32_t unk_id() const { return unk_id_; }
  const WordPieceOptions& options() const { return options_; }
  void write(ImageWriter& out) const;  // the two tries, for a compiled tokenizer

 private:
  const Vocab& vocab_;
  WordPieceOptions options_;
  std::int32_t unk_id_;
  std::shared_ptr<const PrefixTrie> initial_;
  std::shared_ptr<const PrefixTrie> continuations_;  // "##ing" stored as "ing"
};

}  // namespace bertkit::tok
