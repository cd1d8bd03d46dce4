#pragma once
// `bertkit rerank`: each query's documents scored with a cross-encoder and sorted, as
// sentence-transformers' CrossEncoder.rank returns them (stable: equal scores keep input order) and as
// text-embeddings-inference's /rerank does. Two shapes of input:
//   lists  one record per query holding its documents (JSONL {"query": ..., "documents": [...]}): the
//          record comes back with `results`, [{corpus_id, score[, text]}] best first;
//   rows   one record per (query, document) pair (CSV/TSV columns, JSONL fields, tab-separated lines,
//          or documents under one --query): the records with the same query are one group wherever
//          they are, written back as its rows sorted best first, each with its `rank` and `score`.
#include "commands/pair_scorer.h"
#include "commands/similarity.h"
#include "records/field_path.h"
#include "records/record_pipeline.h"

#include <cstddef>
#include <optional>
#include <span>
#include <string>
#include <unordered_map>
#include <vector>

namespace bertkit::cmd {

// Positions of `scores` best first; equal scores keep their order (Python's sorted is stable). At most
// `top_k` of them.
std::vector<std::size_t> rank_order(std::span<const float> scores, std::optional<std::size_t> top_k);

struct RerankSettings {
  std::optional<std::size_t> top_k;  // per query; all when unset
  bool return_documents = false;     // lists: each result's `text`
  std::string documents_field = "documents";  // lists: the field holding the documents (a path: hits.docs)
  std::optional<std::string> query;  // rows: one query for every document (--query); else each record's text
};

// One record per query with its documents: each (query, document) pair is one model input of the record
// (fan-out), so a long document marks its record truncated as a row would.
class RerankListTask : public records::RecordTask {
 public:
  RerankListTask(PairScorer& scorer, core::BatchLimits limits, RerankSettings settings);

  std::vector<std::string> result_fields() const override { return {"results"}; }
  void model_inputs(const records::Record& record, records::ModelInputs& inputs) override;
  void compute(const records::Batch& batch) override;
  void write(const records::Batch& batch, std::size_t i, records::RecordOutput& out) override;

 private:
  PairScorer& scorer_;
  core::BatchLimits limits_;
  RerankSettings settings_;
  records::FieldPath documents_path_;  // settings_.documents_field, a path (records/field_path.h)
  std::vector<float> scores_;          // of every input of the batch
};

// One record per (query, document). The rows of one query are one group wherever they are in the
// input: groups are written at the end, in the order of each query's first row, each sorted best first.
class RerankRowTask : public records::RecordTask {
 public:
  RerankRowTask(PairScorer& scorer, core::BatchLimits limits, RerankSettings settings);

  // --query: each row's `index` (its document's position among the records read) before its rank.
  std::vector<std::string> result_fields() const override;
  std::string whole_input_reason() const override {
    return "a query's rows may be anywhere in the input, so its ranks are known only at the end";
  }
  void model_inputs(const records::Record& record, records::ModelInputs& inputs) override;
  void compute(const records::Batch& batch) override;
  void write(const records::Batch& batch, std::size_t i, records::RecordOutput& out) override;
  // Every group, unless Ctrl-C cut the input short: its ranks would be those of a part.
  void finish(records::RecordOutput& out) override;

 private:
  const std::string& query_of(const records::Record& record) const;
  void write_group(std::size_t group, records::RecordOutput& out);

  PairScorer& scorer_;
  core::BatchLimits limits_;
  RerankSettings settings_;
  std::vector<float> scores_;  // of the batch
  struct Row {
    records::Record record;
    std::uint64_t index = 0;
    bool truncated = false;
    float score = 0;
  };
  std::vector<std::vector<Row>> groups_;                     // in the order of each query's first row
  std::unordered_map<std::string, std::size_t> group_of_;  // query -> its group
};

}  // namespace bertkit::cmd
