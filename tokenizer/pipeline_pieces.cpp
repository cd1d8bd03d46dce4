#include "tokenizer/pipeline_pieces.h"

#include "core/error.h"
#include "tokenizer/bert_pretokenizer.h"
#include "tokenizer/normalizer_sequence.h"
#include "tokenizer/python_normalizer.h"
#include "tokenizer/wordpiece_image.h"

namespace bertkit::tok {

namespace {

std::unique_ptr<Normalizer> make_step(const NormalizerStep& step, UnicodeProfile profile) {
  if (const auto* bert = std::get_if<NormalizerOptions>(&step)) return std::make_unique<BertNormalizer>(*bert, profile);
  // Lowercase: BertNormalizer's lower-casing alone.
  return std::make_unique<BertNormalizer>(NormalizerOptions{false, false, false, true}, profile);
}

}  // namespace

std::unique_ptr<Normalizer> make_normalizer(std::span<const NormalizerStep> steps, UnicodeProfile profile) {
  if (profile == UnicodeProfile::Python) {
    const auto* bert = steps.size() == 1 ? std::get_if<NormalizerOptions>(&steps.front()) : nullptr;
    if (!bert)
      bad_input("--compat python reproduces transformers' BertTokenizer, whose normalizer is one BertNormalizer; "
                "this tokenizer's is not");
    return std::make_unique<PythonBertNormalizer>(*bert);
  }
  if (steps.size() == 1) return make_step(steps.front(), profile);
  std::vector<std::unique_ptr<Normalizer>> made;
  for (const NormalizerStep& step : steps) made.push_back(make_step(step, profile));
  return std::make_unique<SequenceNormalizer>(std::move(made));
}

std::unique_ptr<PreTokenizer> make_pre_tokenizer(const PreTokenizerSpec& spec, UnicodeProfile profile) {
  return std::visit([&](const BertPreTokenizerSpec&) -> std::unique_ptr<PreTokenizer> {
    return std::make_unique<BertPreTokenizer>(profile);
  }, spec);
}

std::unique_ptr<Model> make_model(const ModelSpec& spec, const Vocab& vocab,
                                  std::shared_ptr<const WordPieceTables> compiled) {
  return std::visit([&](const WordPieceOptions& o) -> std::unique_ptr<Model> {
    return std::make_unique<WordPiece>(vocab, o, std::move(compiled));
  }, spec);
}

std::unique_ptr<Decoder> make_decoder(const DecoderSpec& spec, UnicodeProfile profile) {
  return std::visit([&](const DecoderOptions& o) -> std::unique_ptr<Decoder> {
    return std::make_unique<WordPieceDecoder>(o, profile);
  }, spec);
}

}  // namespace bertkit::tok
