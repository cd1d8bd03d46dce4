#pragma once
// Sequence classification on [CLS] (or the mean of the tokens: ModernBERT's classifier_pooling), as the
// family's ClassifierSpec builds it: through BERT's pooler when the architecture has one, or
// ModernBERT's prediction head, then an optional dense + activation (DistilBERT's pre_classifier +
// ReLU, ELECTRA's dense + GELU), then the output projection. BERT's next-sentence head (BertOnlyNSPHead,
// also in BertForPreTraining) is the same computation: the pooler, then nsp onto its two labels. Plus
// the score function transformers' pipeline applies.
#include "core/checkpoint/weights.h"
#include "core/model/bert_pooler.h"
#include "core/model/config.h"
#include "core/model/encoder.h"
#include "core/model/prediction_head.h"
#include "core/ops/buffer.h"
#include "core/ops/linear.h"

#include <optional>
#include <span>
#include <string>
#include <vector>

namespace bertkit::core {

enum class ScoreFunction { None, Sigmoid, Softmax };

// Whether the model has a head that scores a whole sequence: a sequence classifier, or a next-sentence
// head (which classify uses also where the checkpoint has an MLM head beside it).
bool has_sequence_head(const ModelConfig& config);

// The names of the head's labels: id2label; for the next-sentence head, which config.json gives no
// labels, the BERT paper's IsNext (index 0: B continues A) and NotNext.
std::vector<std::string> sequence_labels(const ModelConfig& config);

// transformers' default function_to_apply: sigmoid for multi-label problems or a single label,
// softmax for several labels (the next-sentence head's two included).
ScoreFunction default_score_function(const ModelConfig& config);

// One row of logits to scores, in place.
void apply_score_function(ScoreFunction function, std::span<float> logits);

// The classifier's tensors: [classifier.dense] and classifier.out, or the next-sentence head (nsp). The
// pooler under it is the model's (BertPooler).
struct ClassifierTensors {
  std::optional<LinearDecl> dense;
  LinearDecl out;
};

class ClassificationHead {
 public:
  static ClassifierTensors declare(const ModelConfig& config, TensorDecls& decls);
  ClassificationHead(const ModelConfig& config, const Weights& weights);

  // logits: [batch, num_labels], raw.
  void forward(const EncoderOutput& out, std::vector<float>& logits);

  std::int64_t num_labels() const { return classifier_.out_features(); }

 private:
  // The row the classifier reads per sequence: the pooler's output, [CLS]'s row, or the mean of the rows.
  const float* pooled_rows(const EncoderOutput& out);

  std::optional<BertPooler> pooler_;
  bool mean_pooled_ = false;                      // ModernBERT's classifier_pooling "mean"
  std::optional<PredictionHead> prediction_head_;  // ModernBERT's, on the pooled row
  std::optional<Linear> dense_;  // activation fused
  Linear classifier_;
  FloatBuffer rows_, hidden_;
  std::vector<float> pooled_;
};

}  // namespace bertkit::core
