#pragma once
// Sequence classification on [CLS], as the family's ClassifierSpec builds it: through BERT's pooler
// when the architecture has one, then an optional dense + activation (DistilBERT's pre_classifier +
// ReLU, ELECTRA's dense + GELU), then the output projection. Plus the score function transformers'
// pipeline applies.
#include "core/checkpoint/weights.h"
#include "core/model/bert_pooler.h"
#include "core/model/config.h"
#include "core/model/encoder.h"
#include "core/ops/buffer.h"
#include "core/ops/linear.h"

#include <optional>
#include <span>
#include <vector>

namespace bertkit::core {

enum class ScoreFunction { None, Sigmoid, Softmax };

// transformers' default function_to_apply: sigmoid for multi-label problems or a single label,
// softmax for several labels.
ScoreFunction default_score_function(const ModelConfig& config);

// One row of logits to scores, in place.
void apply_score_function(ScoreFunction function, std::span<float> logits);

class ClassificationHead {
 public:
  ClassificationHead(const ModelConfig& config, const Weights& weights);

  // logits: [batch, num_labels], raw.
  void forward(const EncoderOutput& out, std::vector<float>& logits);

  std::int64_t num_labels() const { return classifier_.out_features(); }

 private:
  std::optional<BertPooler> pooler_;
  std::optional<Linear> dense_;  // activation fused
  Linear classifier_;
  FloatBuffer rows_, hidden_;
  std::vector<float> pooled_;
};

}  // namespace bertkit::core
