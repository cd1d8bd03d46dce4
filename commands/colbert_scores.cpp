#include "commands/colbert_scores.h"

#include "core/error.h"

namespace bertkit::cmd {

ColbertScorer::ColbertScorer(ColbertEncoder& encoder, core::MaxSimReduction reduction)
    : encoder_(encoder), reduction_(reduction) {
  // The inputs are views into the records: a lower-cased copy would need storage per document.
  if (encoder_.plan().text.lower_case)
    bad_input("sentence_bert_config.json: do_lower_case is not supported for scoring with a ColBERT model");
}


void ColbertScorer::add_query(std::string_view query, records::ModelInputs& inputs) const {
  inputs.texts.push_back({model_view(encoder_.plan().text, query), std::nullopt});
}

void ColbertScorer::add_document(std::string_view, std::string_view document, records::ModelInputs& inputs) const {
  inputs.texts.push_back({model_view(encoder_.plan().text, document), std::nullopt});
}

void ColbertScorer::scores(const records::Batch& batch, const core::BatchLimits& limits, std::vector<float>& out) {
  sides_.assign(batch.encodings.size(), 0);
  for (std::size_t i = 0; i < batch.size(); ++i) sides_[batch.first_input[i]] = 1;
  encoder_.vectors(batch.encodings, sides_, limits, vectors_);
  out.clear();
  const std::int64_t dim = encoder_.dimension();
  for (std::size_t i = 0; i < batch.size(); ++i) {
    const std::vector<float>& query = vectors_[batch.first_input[i]];
    for (std::size_t d = batch.first_input[i] + 1; d < batch.first_input[i + 1]; ++d)
      out.push_back(core::maxsim(query, vectors_[d], dim, reduction_));
  }
}

}  // namespace bertkit::cmd
