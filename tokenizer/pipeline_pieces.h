#pragma once
// The pieces of Hugging Face's pipeline (normalizer -> pre-tokenizer -> model -> post-processor ->
// decoder) as data, as tokenizer.json describes them: what the loader reads and the command line
// adjusts, each a closed set of kinds. make_* build the running pieces once per tokenizer; the hot path
// then calls each once per text or word, never per byte. Adding a kind: an alternative here, its case
// in make_* and in the loader (tokenizer_json_pieces.cpp).
#include "tokenizer/bert_normalizer.h"
#include "tokenizer/bpe.h"
#include "tokenizer/byte_level.h"
#include "tokenizer/decoder.h"
#include "tokenizer/metaspace.h"
#include "tokenizer/model.h"
#include "tokenizer/pre_tokenizer.h"
#include "tokenizer/precompiled_charsmap.h"
#include "tokenizer/replace_normalizer.h"
#include "tokenizer/sentencepiece_decoder.h"
#include "tokenizer/sentencepiece_normalizer.h"
#include "tokenizer/split_pre_tokenizers.h"
#include "tokenizer/strip_accents_normalizer.h"
#include "tokenizer/strip_normalizer.h"
#include "tokenizer/unicode_forms.h"
#include "tokenizer/unigram.h"
#include "tokenizer/wordpiece.h"

#include <memory>
#include <span>
#include <string>
#include <variant>
#include <vector>

namespace bertkit::tok {

// Hugging Face's Lowercase normalizer: lower-cases every character as BertNormalizer's lowercase does.
struct LowercaseSpec {};
// SentencePiece's rules (the Precompiled normalizer), shared by every tokenizer built from the spec.
struct PrecompiledSpec {
  std::shared_ptr<const PrecompiledCharsmap> charsmap;
};
// One normaliser of a sequence: BertNormalizer (its options), Lowercase, Precompiled, Replace, Strip,
// NFC/NFD/NFKC/NFKD, StripAccents, or SentencePiece's own (a model read from its .model file).
using NormalizerStep = std::variant<NormalizerOptions, LowercaseSpec, PrecompiledSpec, ReplaceSpec, StripSpec, UnicodeForm,
                                    StripAccentsSpec, SentencePieceRules>;

// BERT's own (the default), byte-level's, Metaspace's, or a Sequence of pre-tokenizers that only split.
using PreTokenizerSpec = std::variant<BertPreTokenizerSpec, ByteLevelOptions, MetaspaceSpec, SplitSequenceSpec>;

using ModelSpec = std::variant<WordPieceOptions, BpeOptions, UnigramSpec>;

// WordPiece's, ByteLevel's, Metaspace's, transformers' slow SentencePiece tokenizer's.
using DecoderSpec = std::variant<DecoderOptions, ByteLevelDecoderOptions, MetaspaceDecoderSpec, SentencePieceDecoderSpec>;

struct WordPieceTables;

// What `info` shows: the model's kind and each normaliser's, as tokenizer.json names them.
std::string model_kind(const ModelSpec& spec);
std::vector<std::string> normalizer_kinds(std::span<const NormalizerStep> steps);

// The steps one after another (a SequenceNormalizer when there are several). --compat python
// (`profile` Python) stands for transformers' slow tokenizers, so it takes exactly one BertNormalizer
// (BertTokenizer) or SentencePiece's own rules (DebertaV2Tokenizer over sentencepiece).
std::unique_ptr<Normalizer> make_normalizer(std::span<const NormalizerStep> steps, UnicodeProfile profile);
std::unique_ptr<PreTokenizer> make_pre_tokenizer(const PreTokenizerSpec& spec, UnicodeProfile profile);
// `compiled`: WordPiece's tries as `convert` stored them, if any.
std::unique_ptr<Model> make_model(const ModelSpec& spec, const Vocab& vocab,
                                  std::shared_ptr<const WordPieceTables> compiled);
std::unique_ptr<Decoder> make_decoder(const DecoderSpec& spec, UnicodeProfile profile);

}  // namespace bertkit::tok
