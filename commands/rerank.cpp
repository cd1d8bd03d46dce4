#include "commands/rerank.h"

#include "core/error.h"
#include "core/setting.h"
#include "records/interrupt.h"

#include <algorithm>
#include <numeric>

namespace bertkit::cmd {

std::vector<std::size_t> rank_order(std::span<const float> scores, std::optional<std::size_t> top_k) {
  std::vector<std::size_t> order(scores.size());
  std::iota(order.begin(), order.end(), std::size_t{0});
  std::stable_sort(order.begin(), order.end(), [&](std::size_t a, std::size_t b) { return scores[a] > scores[b]; });
  if (top_k && *top_k < order.size()) order.resize(*top_k);
  return order;
}

RerankListTask::RerankListTask(PairScorer& scorer, core::BatchLimits limits, RerankSettings settings)
    : scorer_(scorer), limits_(limits), settings_(std::move(settings)),
      documents_path_(Setting::DocumentsField, settings_.documents_field) {}

void RerankListTask::model_inputs(const records::Record& r, records::ModelInputs& inputs) {
  std::string missing;
  const nlohmann::ordered_json* field = documents_path_.find(r.object, &missing);
  if (!field) bad_input("{} (the documents to rank; {} names another)", missing, Setting::DocumentsField);
  if (!field->is_array())
    bad_input("field \"{}\" must be a list of texts, not {}", settings_.documents_field, field->type_name());
  scorer_.add_query(r.text, inputs);
  for (const auto& d : *field) {
    if (!d.is_string())
      bad_input("field \"{}\" must be a list of texts; item {} is {}", settings_.documents_field,
                inputs.texts.size() - scorer_.query_inputs(), d.type_name());
    scorer_.add_document(r.text, d.get_ref<const std::string&>(), inputs);
  }
}

void RerankListTask::compute(const records::Batch& batch) { scorer_.scores(batch, limits_, scores_); }

void RerankListTask::write(const records::Batch& batch, std::size_t i, records::RecordOutput& out) {
  // Each record before this one has query_inputs() inputs besides its documents.
  const std::size_t own = scorer_.query_inputs();
  const std::span<const float> scores =
      std::span(scores_).subspan(batch.first_input[i] - i * own, batch.inputs(i).size() - own);
  const std::vector<std::size_t> order = rank_order(scores, settings_.top_k);
  const nlohmann::ordered_json& documents = *documents_path_.find(batch.records[i].object, nullptr);  // model_inputs checked it
  out.results()
      .begin(batch.records[i], batch.truncated[i])
      .nested("results",
              [&](records::JsonLine& j) {
                j.begin_array();
                for (std::size_t d : order) {
                  j.begin_object().field("corpus_id", d).field("score", scores[d]);
                  if (settings_.return_documents) j.field("text", documents[d].get_ref<const std::string&>());
                  j.end_object();
                }
                j.end_array();
              })
      .end();
}

RerankRowTask::RerankRowTask(PairScorer& scorer, core::BatchLimits limits, RerankSettings settings)
    : scorer_(scorer), limits_(limits), settings_(std::move(settings)) {}

std::vector<std::string> RerankRowTask::result_fields() const {
  if (settings_.query) return {"index", "rank", "score"};
  return {"rank", "score"};
}

const std::string& RerankRowTask::query_of(const records::Record& record) const {
  return settings_.query ? *settings_.query : record.text;
}

void RerankRowTask::model_inputs(const records::Record& record, records::ModelInputs& inputs) {
  scorer_.add_query(query_of(record), inputs);
  scorer_.add_document(query_of(record), settings_.query ? record.text : record.text_pair, inputs);
}

void RerankRowTask::compute(const records::Batch& batch) { scorer_.scores(batch, limits_, scores_); }

void RerankRowTask::write(const records::Batch& batch, std::size_t i, records::RecordOutput&) {
  const auto [at, added] = group_of_.try_emplace(query_of(batch.records[i]), groups_.size());
  if (added) groups_.emplace_back();
  groups_[at->second].push_back({batch.records[i], batch.ordinals[i], batch.truncated[i] != 0, scores_[i]});
}

void RerankRowTask::finish(records::RecordOutput& out) {
  if (groups_.empty() || records::interrupted()) return;
  records::WritingScope writing;
  for (std::size_t g = 0; g < groups_.size(); ++g) write_group(g, out);
  out.end_batch();
}

void RerankRowTask::write_group(std::size_t group, records::RecordOutput& out) {
  const std::vector<Row>& rows = groups_[group];
  std::vector<float> scores;
  for (const Row& row : rows) scores.push_back(row.score);
  const std::vector<std::size_t> order = rank_order(scores, settings_.top_k);
  for (std::size_t r = 0; r < order.size(); ++r) {
    const Row& row = rows[order[r]];
    records::ResultWriter& results = out.results().begin(row.record, row.truncated);
    if (settings_.query) results.field("index", row.index);
    results.field("rank", r + 1).field("score", row.score).end();
  }
}

}  // namespace bertkit::cmd
