#pragma once
// Sentence embeddings of a static embedding model (core/model/static_embedding.h) for embed,
// similarity and search: the plan its folder and the flags give, and the rows of a batch. No encoder
// runs: a text's embedding is the mean of its tokens' rows.
#include "commands/embed.h"
#include "core/loading/static_folder.h"
#include "core/model/static_embedding.h"
#include "tokenizer/tokenizer.h"

#include <cstdint>
#include <memory>
#include <optional>
#include <span>
#include <vector>

namespace bertkit::cmd {

// model2vec's StaticModel.encode default: at most 512 ids, after a cut at 512 × the median token length
// in characters.
inline constexpr std::size_t kModel2VecMaxLength = 512;

// model2vec's median_token_length: int(median of the code-point lengths of every token of the vocabulary).
std::size_t median_token_length(const tok::Tokenizer& tokenizer);

// model2vec's unk_token_id: the id of the tokenizer model's unknown token (WordPiece's, or BPE's when
// set); a Unigram model has none to remove.
std::optional<std::int32_t> model_unknown_id(const tok::Tokenizer& tokenizer);

// How the static model's texts are embedded. sentence-transformers' StaticEmbedding: the prompt
// (config_sentence_transformers.json) before the text, nothing stripped; model2vec: no prompt of its
// own, at most `max_length` ids (kModel2VecMaxLength unless --max-length) of a text cut to max_length ×
// median_token_length characters. --pooling other than mean is refused: the model is a mean of its tokens.
EmbedPlan plan_static_embedding(const core::StaticModel& model, const tok::Tokenizer& tokenizer,
                                const EmbedOptions& options, std::size_t max_length = kModel2VecMaxLength);

class StaticEmbedder : public SentenceEmbedder {
 public:
  StaticEmbedder(const core::StaticModel& model, const tok::Tokenizer& tokenizer, const EmbedPlan& plan);

  std::int64_t dimension() const override { return dimension_; }
  const core::StaticRules& rules() const { return table_.rules(); }
  // Each encoding's ids through the model's rules, in parallel over the encodings.
  void sentence_embeddings(std::span<const tok::Encoding> encodings, const core::BatchLimits& limits,
                           std::vector<float>& rows) override;

 private:
  core::StaticEmbedding table_;
  std::int64_t dimension_;
  bool normalize_truncated_;
};

}  // namespace bertkit::cmd
