#pragma once
// A bi-encoder as rerank's PairScorer: a record's query and each of its documents are embedded in one
// encoder pass, and each document scores against the query as similarity scores a pair (TextVectors:
// the embeddings by the metric, sparse vectors by their dot product, BGE-M3's ColBERT vectors by MaxSim
// over the query's, or the hybrid of those).
#include "commands/pair_scorer.h"
#include "commands/similarity.h"

#include <vector>

namespace bertkit::cmd {

class BiEncoderScorer : public PairScorer {
 public:
  // The texts are read as views into the records: a plan with a prompt or lower-casing is a usage error.
  explicit BiEncoderScorer(const Scorer& scorer);

  std::size_t query_inputs() const override { return 1; }
  void add_query(std::string_view query, records::ModelInputs& inputs) const override;
  void add_document(std::string_view query, std::string_view document, records::ModelInputs& inputs) const override;
  void scores(const records::Batch& batch, const core::BatchLimits& limits, std::vector<float>& out) override;

 private:
  const Scorer& scorer_;
  TextVectors vectors_;
  std::vector<float> parts_;
};

}  // namespace bertkit::cmd
