#pragma once
// `bertkit classify`: sequence classification of texts or pairs, scored as transformers'
// text-classification pipeline scores them (labels from id2label, its default score function, labels
// sorted by score with ties in label order); BERT's next-sentence head scored the same way.
#include "commands/encoder_batches.h"
#include "core/model/classification_head.h"
#include "core/model/encoder.h"
#include "records/record_pipeline.h"
#include "tokenizer/encoding.h"

#include <memory>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

namespace bertkit::cmd {

struct LabelScore {
  std::size_t label = 0;  // index into id2label
  float score = 0;
};

std::string_view score_function_name(core::ScoreFunction function);

// One row of raw logits to every label's score, best first; equal scores keep label order.
std::vector<LabelScore> rank_labels(std::span<const float> logits, core::ScoreFunction function);

class Classifier {
 public:
  // Refuses (usage error) a model without a sequence-classification or next-sentence head.
  Classifier(const core::ModelConfig& config, std::shared_ptr<const core::Weights> weights);

  // Raw logits of each encoding, [encodings.size() * num_labels()], in input order.
  std::vector<float> logits(std::span<const tok::Encoding> encodings, const core::BatchLimits& limits);

  std::size_t num_labels() const { return static_cast<std::size_t>(head_.num_labels()); }
  const core::ModelConfig& config() const { return encoder_.config(); }
  const std::vector<std::string>& labels() const { return labels_; }  // by label index

 private:
  core::Encoder encoder_;
  core::ClassificationHead head_;
  std::vector<std::string> labels_;
};

// Each record's best `label` and its `score`, and with `listed` > 0 the best `listed` labels as `scores`.
class ClassifyTask : public records::RecordTask {
 public:
  ClassifyTask(Classifier& classifier, core::ScoreFunction function, std::size_t listed, const core::BatchLimits& limits)
      : classifier_(classifier), function_(function), listed_(listed), limits_(limits) {}

  std::vector<std::string> result_fields() const override;
  void compute(const records::Batch& batch) override { logits_ = classifier_.logits(batch.encodings, limits_); }
  void write(const records::Batch& batch, std::size_t i, records::RecordOutput& out) override;

 private:
  Classifier& classifier_;
  core::ScoreFunction function_;
  std::size_t listed_;
  core::BatchLimits limits_;
  std::vector<float> logits_;
};

}  // namespace bertkit::cmd
