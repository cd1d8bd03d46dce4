#include "commands/bi_encoder_scorer.h"

#include "core/error.h"

namespace bertkit::cmd {

BiEncoderScorer::BiEncoderScorer(const Scorer& scorer) : scorer_(scorer), parts_(scorer.plan->vectors.size()) {
  if (!scorer_.plan->prefix.empty() || scorer_.plan->lower_case || scorer_.plan->max_chars)
    usage_error("rerank with a bi-encoder reads the texts as they are: this model's prompt, do_lower_case or "
                "character cut is not supported here yet (a similarity search handles them)");
}

void BiEncoderScorer::add_query(std::string_view query, records::ModelInputs& inputs) const {
  inputs.texts.push_back({model_view(*scorer_.plan, query), std::nullopt});
}

void BiEncoderScorer::add_document(std::string_view, std::string_view document, records::ModelInputs& inputs) const {
  inputs.texts.push_back({model_view(*scorer_.plan, document), std::nullopt});
}

void BiEncoderScorer::scores(const records::Batch& batch, const core::BatchLimits& limits, std::vector<float>& out) {
  vectors_.embed(scorer_, batch.encodings, limits);
  out.clear();
  for (std::size_t i = 0; i < batch.size(); ++i) {
    const std::size_t query = batch.first_input[i];
    for (std::size_t d = query + 1; d < batch.first_input[i + 1]; ++d)
      out.push_back(pair_score(scorer_, vectors_, query, vectors_, d, parts_));
  }
}

}  // namespace bertkit::cmd
