#pragma once
// SentencePiece's model file (spm.model, sentencepiece.bpe.model, spiece.model): the ModelProto
// protobuf, read from scratch. Only what encoding needs is kept: the pieces (text, score, type),
// trainer_spec's model type and byte_fallback, the unknown piece, and normalizer_spec's rules. Unknown fields are
// skipped by wire type; every length is checked against the bytes, so a damaged or hostile file is
// refused with one line naming it and what is wrong. Strings are views into the bytes (no copy): the
// caller keeps the bytes alive as long as the model.
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace bertkit::tok {

// What SentencePiece writes for a space: "▁" (U+2581).
inline constexpr std::string_view kSentencePieceSpace = "\xE2\x96\x81";

// sentencepiece_model.proto's SentencePiece.Type.
enum class PieceType : std::uint8_t { Normal = 1, Unknown = 2, Control = 3, UserDefined = 4, Unused = 5, Byte = 6 };

struct SentencePieceEntry {
  std::string_view piece;
  float score = 0;
  PieceType type = PieceType::Normal;
};

// TrainerSpec.ModelType.
enum class SentencePieceModelType { Unigram = 1, Bpe = 2, Word = 3, Char = 4 };

struct SentencePieceNormalizerSpec {
  std::string_view name;
  std::string_view precompiled_charsmap;  // empty: the identity
  bool add_dummy_prefix = true;
  bool remove_extra_whitespaces = true;
  bool escape_whitespaces = true;
};

struct SentencePieceModel {
  std::vector<SentencePieceEntry> pieces;
  SentencePieceModelType model_type = SentencePieceModelType::Unigram;
  bool byte_fallback = false;
  bool treat_whitespace_as_suffix = false;
  std::int32_t unk_id = -1;  // the piece of type Unknown
  SentencePieceNormalizerSpec normalizer;
};

// Parses `bytes`; BadInput naming `where` and the fault for anything that is not a ModelProto with at
// least one piece (an empty piece, a piece type or model type outside the enum, a length past the end).
SentencePieceModel read_sentencepiece_model(std::string_view bytes, const std::string& where);

// "Unigram", "BPE", "WORD", "CHAR": for messages.
std::string_view sentencepiece_model_type_name(SentencePieceModelType type);

}  // namespace bertkit::tok
