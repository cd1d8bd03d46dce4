#include "tokenizer/pipeline_pieces.h"

#include "core/error.h"
#include "tokenizer/bert_pretokenizer.h"
#include "tokenizer/normalizer_sequence.h"
#include "tokenizer/precompiled_normalizer.h"
#include "tokenizer/python_normalizer.h"
#include "tokenizer/wordpiece_image.h"

namespace bertkit::tok {

namespace {

std::unique_ptr<Normalizer> make_step(const NormalizerStep& step, UnicodeProfile profile) {
  if (const auto* bert = std::get_if<NormalizerOptions>(&step)) return std::make_unique<BertNormalizer>(*bert, profile);
  if (const auto* p = std::get_if<PrecompiledSpec>(&step)) return std::make_unique<PrecompiledNormalizer>(p->charsmap);
  if (const auto* r = std::get_if<ReplaceSpec>(&step)) return std::make_unique<ReplaceNormalizer>(*r);
  if (const auto* strip = std::get_if<StripSpec>(&step)) return std::make_unique<StripNormalizer>(*strip);
  if (const auto* form = std::get_if<UnicodeForm>(&step)) return std::make_unique<UnicodeFormNormalizer>(*form);
  if (std::holds_alternative<StripAccentsSpec>(step)) return std::make_unique<StripAccentsNormalizer>();
  if (const auto* sp = std::get_if<SentencePieceRules>(&step)) return std::make_unique<SentencePieceNormalizer>(*sp);
  // Lowercase: BertNormalizer's lower-casing alone.
  return std::make_unique<BertNormalizer>(NormalizerOptions{false, false, false, true}, profile);
}

// One call operator per kind: a kind added to a variant without its name here does not compile.
struct KindName {
  std::string operator()(const WordPieceOptions&) const { return "WordPiece"; }
  std::string operator()(const BpeOptions&) const { return "BPE"; }
  std::string operator()(const UnigramSpec&) const { return "Unigram"; }
  std::string operator()(const NormalizerOptions&) const { return "BertNormalizer"; }
  std::string operator()(const LowercaseSpec&) const { return "Lowercase"; }
  std::string operator()(const PrecompiledSpec&) const { return "Precompiled"; }
  std::string operator()(const ReplaceSpec&) const { return "Replace"; }
  std::string operator()(const StripSpec&) const { return "Strip"; }
  std::string operator()(const StripAccentsSpec&) const { return "StripAccents"; }
  std::string operator()(const SentencePieceRules&) const { return "SentencePiece"; }
  std::string operator()(UnicodeForm form) const {
    switch (form) {
      case UnicodeForm::Nfc: return "NFC";
      case UnicodeForm::Nfd: return "NFD";
      case UnicodeForm::Nfkc: return "NFKC";
      case UnicodeForm::Nfkd: return "NFKD";
    }
    return "";
  }
};

}  // namespace

std::string model_kind(const ModelSpec& spec) { return std::visit(KindName{}, spec); }

std::vector<std::string> normalizer_kinds(std::span<const NormalizerStep> steps) {
  std::vector<std::string> out;
  for (const NormalizerStep& step : steps) out.push_back(std::visit(KindName{}, step));
  return out;
}

std::unique_ptr<Normalizer> make_normalizer(std::span<const NormalizerStep> steps, UnicodeProfile profile) {
  if (profile == UnicodeProfile::Python) {
    if (steps.size() == 1)
      if (const auto* sp = std::get_if<SentencePieceRules>(&steps.front())) return std::make_unique<SentencePieceNormalizer>(*sp);
    const auto* bert = steps.size() == 1 ? std::get_if<NormalizerOptions>(&steps.front()) : nullptr;
    if (!bert)
      bad_input("the Python profile reproduces transformers' BertTokenizer, whose normalizer is one "
                "BertNormalizer; this tokenizer's is not");
    return std::make_unique<PythonBertNormalizer>(*bert);
  }
  if (steps.size() == 1) return make_step(steps.front(), profile);
  std::vector<std::unique_ptr<Normalizer>> made;
  for (const NormalizerStep& step : steps) made.push_back(make_step(step, profile));
  return std::make_unique<SequenceNormalizer>(std::move(made));
}

std::unique_ptr<PreTokenizer> make_pre_tokenizer(const PreTokenizerSpec& spec, UnicodeProfile profile) {
  if (const auto* byte_level = std::get_if<ByteLevelOptions>(&spec))
    return std::make_unique<ByteLevelPreTokenizer>(*byte_level);
  if (const auto* metaspace = std::get_if<MetaspaceSpec>(&spec)) return std::make_unique<MetaspacePreTokenizer>(*metaspace);
  if (const auto* split = std::get_if<SplitSequenceSpec>(&spec)) return std::make_unique<SplitSequencePreTokenizer>(*split, profile);
  return std::make_unique<BertPreTokenizer>(profile);
}

std::unique_ptr<Model> make_model(const ModelSpec& spec, const Vocab& vocab,
                                  std::shared_ptr<const WordPieceTables> compiled) {
  if (const auto* bpe = std::get_if<BpeOptions>(&spec)) return std::make_unique<Bpe>(vocab, *bpe);
  if (const auto* unigram = std::get_if<UnigramSpec>(&spec)) return std::make_unique<Unigram>(vocab, *unigram);
  return std::make_unique<WordPiece>(vocab, std::get<WordPieceOptions>(spec), std::move(compiled));
}

std::unique_ptr<Decoder> make_decoder(const DecoderSpec& spec, UnicodeProfile profile) {
  if (const auto* byte_level = std::get_if<ByteLevelDecoderOptions>(&spec))
    return std::make_unique<ByteLevelDecoder>(*byte_level);
  if (const auto* metaspace = std::get_if<MetaspaceDecoderSpec>(&spec)) return std::make_unique<MetaspaceDecoder>(*metaspace);
  if (const auto* sp = std::get_if<SentencePieceDecoderSpec>(&spec)) return std::make_unique<SentencePieceDecoder>(*sp);
  return std::make_unique<WordPieceDecoder>(std::get<DecoderOptions>(spec), profile);
}

}  // namespace bertkit::tok
