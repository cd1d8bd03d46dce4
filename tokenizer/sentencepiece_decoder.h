#pragma once
// Decoding as transformers' slow DebertaV2Tokenizer does over the sentencepiece library: the tokens
// added past the vocabulary stand apart, joined to the rest by single spaces; the rest is
// SPMTokenizer.decode (each special token written as it is, a space before a run of them, the pieces
// between them decoded by SentencePiece, the whole stripped); then clean_up_tokenization. SentencePiece's
// own decode: byte pieces gather into UTF-8 (a byte that starts no valid character is U+FFFD),
// control pieces vanish, "▁" is a space, and the leading "▁"s of the text are dropped.
#include "tokenizer/decoder.h"
#include "tokenizer/sentencepiece_model.h"
#include "tokenizer/vocab.h"

#include <memory>
#include <string>
#include <vector>

namespace bertkit::tok {

struct SentencePieceDecoderSpec {
  std::shared_ptr<const Vocab> vocab;
  std::shared_ptr<const std::vector<PieceType>> types;  // by id
  std::vector<std::string> special;   // decoded apart by SPMTokenizer (its special tokens)
  std::vector<std::string> added;     // transformers' added_tokens_encoder: past the vocabulary
  std::string unk_surface = " \xE2\x81\x87 ";  // trainer_spec's default: what the unknown piece decodes to
  bool add_dummy_prefix = true, remove_extra_whitespaces = true;
  bool clean_up_tokenization_spaces = true;
};

class SentencePieceDecoder : public Decoder {
 public:
  explicit SentencePieceDecoder(SentencePieceDecoderSpec spec) : spec_(std::move(spec)) {}
  std::string decode(const std::vector<std::string>& tokens) const override;
  std::string join(const std::vector<std::string>& tokens) const override;

 private:
  // sentencepiece's DecodePieces.
  std::string decode_pieces(const std::vector<std::string>& pieces) const;
  static bool contains(const std::vector<std::string>& list, const std::string& token);

  SentencePieceDecoderSpec spec_;
};

}  // namespace bertkit::tok
