#pragma once
// ColBERT as a PairScorer: a record's query is encoded once as a query, each document as a document,
// and each document scores the MaxSim of the query's vectors against its own (core/model/maxsim.h:
// PyLate's sum, or BGE-M3's mean).
#include "commands/colbert_vectors.h"
#include "commands/pair_scorer.h"
#include "core/model/maxsim.h"

#include <vector>

namespace bertkit::cmd {

class ColbertScorer : public PairScorer {
 public:
  ColbertScorer(ColbertEncoder& encoder, core::MaxSimReduction reduction);

  std::size_t query_inputs() const override { return 1; }
  void add_query(std::string_view query, records::ModelInputs& inputs) const override;
  void add_document(std::string_view query, std::string_view document, records::ModelInputs& inputs) const override;
  void scores(const records::Batch& batch, const core::BatchLimits& limits, std::vector<float>& out) override;

 private:
  ColbertEncoder& encoder_;
  core::MaxSimReduction reduction_;
  std::vector<std::uint8_t> sides_;
  std::vector<std::vector<float>> vectors_;
};

}  // namespace bertkit::cmd
