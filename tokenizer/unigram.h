#pragma once
// The Unigram model (SentencePiece's, as Hugging Face runs it): the segmentation of a word whose pieces'
// scores sum highest (Viterbi over the lattice of vocabulary pieces; on a tie the first path found
// stays). A character no one-character piece covers is the unknown piece, scored 10 below the lowest
// piece; runs of unknown pieces fuse into one, which byte_fallback spells as <0xXX> pieces when the
// vocabulary has them all.
//
// A model read from SentencePiece's own file (`types` set) follows sentencepiece's encoder instead
// (unigram_model.cc, EncodeOptimized): control, unknown and byte pieces are never matched in text, unused
// ones are matched but never taken, a user-defined piece scores length x the best score - 0.1, the
// unknown score is 10 below the lowest normal piece, path scores add up in float, and with byte
// fallback each unknown character becomes its own UTF-8 bytes' pieces (spanning that character);
// without it a run of unknown characters is one unknown piece.
#include "tokenizer/model.h"
#include "tokenizer/prefix_trie.h"
#include "tokenizer/sentencepiece_model.h"
#include "tokenizer/vocab.h"

#include <memory>
#include <vector>

namespace bertkit::tok {

struct UnigramSpec {
  std::int32_t unk_id = -1;  // -1: none (a character no piece covers is then an error)
  bool byte_fallback = false;
  std::shared_ptr<const std::vector<double>> scores;  // by id
  std::shared_ptr<const std::vector<PieceType>> types;  // by id: SentencePiece's rules; null: Hugging Face's
};

class Unigram : public Model {
 public:
  // BadInput when unk_id or the scores do not fit the vocabulary.
  Unigram(const Vocab& vocab, UnigramSpec spec);
  void tokenize(std::string_view word, std::vector<Piece>& out) const override;

 private:
  // Appends the pieces of a run of unknown characters word[begin, end).
  void unknown(std::string_view word, std::uint32_t begin, std::uint32_t end, std::vector<Piece>& out) const;
  // The same with SentencePiece's rules.
  void sentencepiece_unknown(std::string_view word, std::uint32_t begin, std::uint32_t end, std::vector<Piece>& out) const;
  // The piece's score in the lattice (SentencePiece: a user-defined piece's bonus).
  double lattice_score(std::int32_t id, std::uint32_t length) const;

  const Vocab& vocab_;
  UnigramSpec spec_;
  PrefixTrie trie_;
  double unk_score_ = 0;
  double max_score_ = 0;  // SentencePiece: the highest normal piece's
  std::vector<std::int32_t> byte_ids_;  // <0x00>..<0xFF> when byte_fallback has them all, else empty
};

}  // namespace bertkit::tok
