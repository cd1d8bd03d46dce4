#pragma once
// `bertkit zero-shot`: transformers' ZeroShotClassificationPipeline. Each text is paired with one
// hypothesis per candidate label (the template with the label in it); an NLI model scores every pair,
// and the labels are ranked by entailment: softmax of the entailment logits across the labels, or with
// multi_label (or a single label) each label's softmax over [contradiction, entailment].
#include "commands/classify.h"
#include "records/field_path.h"
#include "records/record_pipeline.h"

#include <cstddef>
#include <map>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

namespace bertkit::cmd {

// Where the pipeline reads an NLI model's verdicts: entailment is the first label (by id) whose name,
// lower-cased, starts with "entail"; contradiction is id 0, or the last id when entailment is 0 (the
// pipeline takes it by position, not by name). A model without an entailment label is refused.
struct NliLabels {
  std::size_t entailment = 0, contradiction = 0;
};
NliLabels nli_labels(const core::ModelConfig& config);

// Candidate labels from one string as the pipeline splits it: at commas, each stripped of white space,
// empty ones dropped.
std::vector<std::string> split_labels(std::string_view text);

// The hypothesis for `label`: Python's template.format(label), for templates with "{}" or "{0}"
// fields ("{{" and "}}" are braces). A template with no field, or another kind, is refused (usage).
std::string format_hypothesis(std::string_view template_text, std::string_view label);
void check_hypothesis_template(std::string_view template_text);

// The labels' scores from their pairs' logits (labels × num_labels), ranked as the pipeline ranks
// them: best first, equal scores in the reverse of their order (numpy's argsort, reversed).
std::vector<LabelScore> zero_shot_ranking(std::span<const float> logits, std::size_t num_labels, NliLabels nli,
                                          bool multi_label);

struct ZeroShotSettings {
  std::vector<std::string> labels;  // --labels: every record's candidates; empty: each record's own
  std::string labels_field;         // JSONL: the member holding a record's labels (a list, or a text split at commas)
  bool labels_from_pair = false;    // CSV/TSV or --pairs: the record's second text holds its labels
  std::string hypothesis_template = "This example is {}.";
  bool multi_label = false;
};

// Each record gets `labels` and `scores`, best first, as the pipeline returns them.
class ZeroShotTask : public records::RecordTask {
 public:
  ZeroShotTask(Classifier& classifier, core::BatchLimits limits, ZeroShotSettings settings);

  std::vector<std::string> result_fields() const override { return {"labels", "scores"}; }
  void model_inputs(const records::Record& record, records::ModelInputs& inputs) override;
  void compute(const records::Batch& batch) override;
  void write(const records::Batch& batch, std::size_t i, records::RecordOutput& out) override;

 private:
  struct Candidates {
    std::vector<std::string> labels, hypotheses;
  };
  const Candidates& candidates_of(const records::Record& record, std::uint64_t ordinal);

  Classifier& classifier_;
  core::BatchLimits limits_;
  ZeroShotSettings settings_;
  NliLabels nli_;
  std::optional<records::FieldPath> labels_path_;
  Candidates shared_;                                // --labels
  std::map<std::uint64_t, Candidates> per_record_;  // by record ordinal, until its batch is written
  std::vector<float> logits_;
};

}  // namespace bertkit::cmd
