#pragma once
// `bertkit similarity`: scores of text pairs and nearest corpus texts of queries, with a bi-encoder
// (embeddings compared by a metric) or a cross-encoder (a one-label classifier reading the pair).
#include "core/checkpoint/weights.h"
#include "core/model/batching.h"
#include "core/model/classification_head.h"
#include "core/model/config.h"
#include "commands/colbert_scores.h"
#include "commands/embed.h"
#include "commands/pair_scorer.h"
#include "core/model/encoder.h"
#include "core/model/embedding_precision.h"
#include "core/model/similarity.h"
#include "records/record_pipeline.h"
#include "tokenizer/encoding.h"

#include <cstdint>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

namespace bertkit::cmd {

// A sequence-classification model with one label scores a pair itself (sentence-transformers'
// CrossEncoder); any other model is used as a bi-encoder.
bool is_cross_encoder(const core::ModelConfig& config);

// The function a cross-encoder's logit goes through, as sentence-transformers' CrossEncoder applies
// it: the activation the checkpoint names (Sigmoid, or Identity: the raw logit), else sigmoid. Any
// other activation is bad input naming it.
core::ScoreFunction cross_encoder_function(const core::ModelConfig& config);

class CrossEncoder : public PairScorer {
 public:
  CrossEncoder(const core::ModelConfig& config, std::shared_ptr<const core::Weights> weights,
               core::ScoreFunction function);
  // One score per pair encoding ([CLS] a [SEP] b [SEP]): the logit through `function`.
  void scores(std::span<const tok::Encoding> pairs, const core::BatchLimits& limits, std::vector<float>& out);

  // A PairScorer whose every input is one (query, document) pair.
  std::size_t query_inputs() const override { return 0; }
  void add_query(std::string_view, records::ModelInputs&) const override {}
  void add_document(std::string_view query, std::string_view document, records::ModelInputs& inputs) const override {
    inputs.texts.push_back({query, document});
  }
  void scores(const records::Batch& batch, const core::BatchLimits& limits, std::vector<float>& out) override {
    scores(batch.encodings, limits, out);
  }

 private:
  core::Encoder encoder_;
  core::ClassificationHead head_;
  core::ScoreFunction function_;
  std::vector<float> logits_;
};

struct Hit {
  std::uint64_t index = 0;  // position in the corpus
  records::Record record;   // the corpus record, echoed with the hit
  float score = 0;
};

// The k best hits offered (highest score first; on a tie the earlier corpus index), in O(k) memory.
class TopK {
 public:
  explicit TopK(std::size_t k) : k_(k) {}
  // Copies the record only when the hit is kept.
  void offer(std::uint64_t index, float score, const records::Record& record);
  std::vector<Hit> sorted() const;

 private:
  std::size_t k_;
  std::vector<Hit> heap_;  // the worst kept hit on top
};

// Row i of `rows`, embeddings of `dim` values each.
std::span<const float> embedding_row(const std::vector<float>& rows, std::size_t i, std::int64_t dim);

// Bi-encoder or cross-encoder, whichever the model is.
struct Scorer {
  std::optional<EmbedPlan> plan;  // bi-encoder: how texts are embedded (a search's corpus texts)
  std::optional<EmbedPlan> query_plan;  // a search's queries, when their prompt differs from the corpus's
  std::unique_ptr<SentenceEmbedder> embedder;
  Embedder* transformer = nullptr;  // `embedder` when it is a transformer's: the one that gives sparse vectors
  std::unique_ptr<CrossEncoder> cross;
  // A ColBERT model: pairs scored by MaxSim (`plan` reads its texts; no embedder).
  std::unique_ptr<ColbertEncoder> colbert_encoder;
  std::unique_ptr<ColbertScorer> colbert;
  core::Metric metric = core::Metric::Cosine;
  core::BatchLimits limits;
  // Search (bi-encoder): embeddings quantised as quantize_embeddings does before they are compared;
  // int8/uint8 with `ranges`. binary/ubinary score the negated Hamming distance, others the metric.
  core::Precision precision = core::Precision::Float32;
  std::optional<core::Ranges> ranges;

  // A bi-encoder's pair scores with plan->vectors: one kind (dense by the metric, sparse by the dot product,
  // BGE-M3's ColBERT vectors by MaxSim averaged over the first text's vectors), or, with `weights` (one
  // per kind), their weighted mean: FlagEmbedding's compute_score, Σ w·score / Σ w.
  std::vector<float> weights;
  bool hybrid() const { return !weights.empty(); }
  // Only dense embeddings: what a static model and any SentenceEmbedder give.
  bool dense_only() const { return plan && plan->vectors == std::vector{VectorKind::Dense}; }
};

// A bi-encoder's vectors of a set of texts, each kind the scorer's plan scores (embedded in one encoder
// pass), and the score of one text against another: one kind's, or the hybrid's weighted mean (`parts`
// gets each kind's own score, in the plan's order).
class TextVectors {
 public:
  void embed(const Scorer& scorer, std::span<const tok::Encoding> encodings, const core::BatchLimits& limits);
  friend float pair_score(const Scorer& scorer, const TextVectors& a, std::size_t i, const TextVectors& b,
                          std::size_t j, std::span<float> parts);

 private:
  std::vector<float> dense_;
  std::vector<core::SparseVector> sparse_;
  std::vector<std::vector<float>> colbert_;
};
float pair_score(const Scorer& scorer, const TextVectors& a, std::size_t i, const TextVectors& b, std::size_t j,
                 std::span<float> parts);

// The `score` of each record's pair of texts.
class PairTask : public records::RecordTask {
 public:
  explicit PairTask(Scorer& scorer) : scorer_(scorer) {}

  std::vector<std::string> result_fields() const override;
  // A bi-encoder's two texts are two inputs, embedded apart; a cross-encoder reads the pair.
  void model_inputs(const records::Record& record, records::ModelInputs& inputs) override;
  void compute(const records::Batch& batch) override;
  void write(const records::Batch& batch, std::size_t i, records::RecordOutput& out) override;

 private:
  Scorer& scorer_;
  std::vector<tok::Encoding> side_;  // one text of each pair
  TextVectors a_, b_;
  std::vector<float> scores_;
  std::vector<float> parts_;  // hybrid: each pair's score of each kind, plan->vectors' order
};

}  // namespace bertkit::cmd
