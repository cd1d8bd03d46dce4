#include "core/model/classification_head.h"
#include "core/model/family_spec.h"
#include "core/model/linear_weights.h"

#include "core/model/gather_rows.h"
#include "core/model/pooling.h"
#include "core/ops/softmax.h"

#include <cmath>

namespace bertkit::core {

namespace {

// Next-sentence prediction is the head only where the checkpoint has no sequence classifier.
bool next_sentence_head(const ModelConfig& config) {
  return config.head != HeadKind::SequenceClassification && architecture_spec(config).nsp;
}

}  // namespace

bool has_sequence_head(const ModelConfig& config) {
  return config.head == HeadKind::SequenceClassification || next_sentence_head(config);
}

std::vector<std::string> sequence_labels(const ModelConfig& config) {
  if (next_sentence_head(config)) return {"IsNext", "NotNext"};
  return config.id2label;
}

ScoreFunction default_score_function(const ModelConfig& config) {
  if (config.problem_type == ProblemType::MultiLabel || config.num_labels == 1) return ScoreFunction::Sigmoid;
  if (config.num_labels > 1) return ScoreFunction::Softmax;
  // The next-sentence head's two labels are not in config.json.
  return config.num_labels == 0 && next_sentence_head(config) ? ScoreFunction::Softmax : ScoreFunction::None;
}

void apply_score_function(ScoreFunction function, std::span<float> logits) {
  switch (function) {
    case ScoreFunction::None: return;
    case ScoreFunction::Sigmoid:
      for (float& x : logits) x = 1.0f / (1.0f + std::exp(-x));
      return;
    case ScoreFunction::Softmax: softmax_row(logits.data(), static_cast<std::int64_t>(logits.size())); return;
  }
}

ClassifierTensors ClassificationHead::declare(const ModelConfig& config, TensorDecls& decls) {
  const std::int64_t h = config.hidden_size;
  if (next_sentence_head(config)) return {std::nullopt, decls.linear("nsp", 2, h)};
  ClassifierTensors t;
  PredictionHead::declare(config, decls);
  if (config.family->classifier.dense) t.dense = decls.linear("classifier.dense", h, h);
  t.out = decls.linear("classifier.out", config.num_labels, h);
  return t;
}

ClassificationHead::ClassificationHead(const ModelConfig& config, const Weights& weights) {
  if (architecture_spec(config).pooler != PoolerUse::None) pooler_.emplace(config, weights);
  TensorDecls decls;
  const ClassifierTensors t = declare(config, decls);
  if (t.dense) {
    const Eltwise activation = config.classifier_activation ? eltwise_for(*config.classifier_activation)
                                                            : *config.family->classifier.dense;
    dense_.emplace(linear_layer(weights, *t.dense, activation));
  }
  classifier_ = linear_layer(weights, t.out);
  prediction_head_ = PredictionHead::build(config, weights);
  mean_pooled_ = config.classifier_pooling == ClassifierPooling::Mean;
}

const float* ClassificationHead::pooled_rows(const EncoderOutput& out) {
  if (pooler_) {
    pooler_->forward(out, pooled_);
    return pooled_.data();
  }
  if (!mean_pooled_) return gather_first_rows(out, rows_);
  // The mean over the attention mask: the sequence's tokens, [CLS] and [SEP] included.
  const std::int64_t h = out.hidden_size;
  float* rows = rows_.reserve(out.size() * static_cast<std::size_t>(h));
  for (std::size_t s = 0; s < out.size(); ++s)
    pool_sequence(Pooling{.mean = true}, out.row(s, 0), out.length(s), h, rows + static_cast<std::int64_t>(s) * h);
  return rows;
}

void ClassificationHead::forward(const EncoderOutput& out, std::vector<float>& logits) {
  const auto batch = static_cast<std::int64_t>(out.size());
  const float* features = pooled_rows(out);
  if (prediction_head_) features = prediction_head_->forward(features, batch);
  if (dense_) {
    float* hidden = hidden_.reserve(static_cast<std::size_t>(batch * dense_->out_features()));
    dense_->forward(features, batch, hidden);
    features = hidden;
  }
  logits.resize(static_cast<std::size_t>(batch * num_labels()));
  classifier_.forward(features, batch, logits.data());
}

}  // namespace bertkit::core
