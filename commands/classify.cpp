#include "commands/classify.h"

#include "core/error.h"

#include <algorithm>
#include <numeric>

namespace bertkit::cmd {

namespace {

const core::ModelConfig& with_classifier(const core::ModelConfig& config) {
  return core::require_head(config, core::has_sequence_head, "classify",
                            "sequence-classification or next-sentence-prediction");
}

}  // namespace

std::string_view score_function_name(core::ScoreFunction function) {
  switch (function) {
    case core::ScoreFunction::Softmax: return "softmax";
    case core::ScoreFunction::Sigmoid: return "sigmoid";
    case core::ScoreFunction::None: return "none";
  }
  return "none";
}

std::vector<LabelScore> rank_labels(std::span<const float> logits, core::ScoreFunction function) {
  std::vector<float> scores(logits.begin(), logits.end());
  core::apply_score_function(function, scores);
  std::vector<LabelScore> ranked(scores.size());
  for (std::size_t i = 0; i < scores.size(); ++i) ranked[i] = {i, scores[i]};
  // Python's sort is stable: labels with equal scores stay in id order.
  std::stable_sort(ranked.begin(), ranked.end(), [](const LabelScore& a, const LabelScore& b) { return a.score > b.score; });
  return ranked;
}

Classifier::Classifier(const core::ModelConfig& config, std::shared_ptr<const core::Weights> weights)
    : encoder_(with_classifier(config), weights), head_(config, *weights), labels_(core::sequence_labels(config)) {}

std::vector<float> Classifier::logits(std::span<const tok::Encoding> encodings, const core::BatchLimits& limits) {
  const std::size_t labels = num_labels();
  std::vector<float> all(encodings.size() * labels), batch;
  run_encoder(encoder_, encodings, limits, [&](std::span<const std::size_t> indices, const core::EncoderOutput& out) {
    head_.forward(out, batch);
    for (std::size_t k = 0; k < indices.size(); ++k)
      std::copy_n(batch.begin() + static_cast<std::ptrdiff_t>(k * labels), labels,
                  all.begin() + static_cast<std::ptrdiff_t>(indices[k] * labels));
  });
  return all;
}

std::vector<std::string> ClassifyTask::result_fields() const {
  std::vector<std::string> fields{"label", "score"};
  if (listed_) fields.emplace_back("scores");
  return fields;
}

void ClassifyTask::write(const records::Batch& batch, std::size_t i, records::RecordOutput& out) {
  const std::size_t labels = classifier_.num_labels();
  const auto& names = classifier_.labels();
  auto ranked = rank_labels(std::span(logits_).subspan(i * labels, labels), function_);
  records::ResultWriter& results = out.results();
  results.begin(batch.records[i], batch.truncated[i]).field("label", names[ranked[0].label]).field("score", ranked[0].score);
  if (listed_) {
    const std::size_t n = std::min(listed_, ranked.size());
    results.nested("scores", [&](records::JsonLine& j) {
      j.begin_array();
      for (std::size_t r = 0; r < n; ++r)
        j.begin_object().field("label", names[ranked[r].label]).field("score", ranked[r].score).end_object();
      j.end_array();
    });
  }
  results.end();
}

}  // namespace bertkit::cmd
