#pragma once
// What scores a query against documents for `similarity` pairs and `rerank`: a cross-encoder reads each
// (query, document) pair as one input; a late-interaction model (ColBERT) encodes the query and each
// document apart and compares their vectors (MaxSim).
#include "core/model/batching.h"
#include "records/model_inputs.h"
#include "records/record_pipeline.h"

#include <cstddef>
#include <string_view>
#include <vector>

namespace bertkit::cmd {

class PairScorer {
 public:
  virtual ~PairScorer() = default;
  // The model inputs add_query gives each record before its documents': 0 or 1.
  virtual std::size_t query_inputs() const = 0;
  // A record's inputs: its query once, then each document (views into the record, valid until compute).
  virtual void add_query(std::string_view query, records::ModelInputs& inputs) const = 0;
  virtual void add_document(std::string_view query, std::string_view document, records::ModelInputs& inputs) const = 0;
  // One score per document, record after record (record i's inputs are batch.inputs(i)).
  virtual void scores(const records::Batch& batch, const core::BatchLimits& limits, std::vector<float>& out) = 0;
};

}  // namespace bertkit::cmd
