#include "commands/rerank.h"

#include "core/error.h"
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

RerankListTask::RerankListTask(CrossEncoder& scorer, const tok::Tokenizer& tokenizer, tok::EncodeOptions encode,
                               core::BatchLimits limits, RerankSettings settings)
    : scorer_(scorer), tokenizer_(tokenizer), encode_(std::move(encode)), limits_(limits), settings_(std::move(settings)),
      documents_path_("--documents-field", settings_.documents_field) {}

void RerankListTask::compute(const records::Batch& batch) {
  documents_.assign(batch.size(), {});
  scores_.assign(batch.size(), {});
  std::vector<tok::Encoding> pairs;
  for (std::size_t i = 0; i < batch.size(); ++i) {
    const records::Record& r = batch.records[i];
    std::string missing;
    const nlohmann::ordered_json* field = documents_path_.find(r.object, &missing);
    if (!field) bad_input("{} (the documents to rank; --documents-field names another)", missing);
    if (!field->is_array())
      bad_input("field \"{}\" must be a list of texts, not {}", settings_.documents_field, field->type_name());
    for (const auto& d : *field) {
      if (!d.is_string())
        bad_input("field \"{}\" must be a list of texts; item {} is {}", settings_.documents_field,
                  documents_[i].size(), d.type_name());
      documents_[i].push_back(d.get<std::string>());
    }
    for (const std::string& d : documents_[i]) pairs.push_back(tokenizer_.encode(r.text, d, encode_));
  }
  std::vector<float> all;
  scorer_.scores(pairs, limits_, all);
  std::size_t at = 0;
  for (std::size_t i = 0; i < batch.size(); ++i) {
    scores_[i].assign(all.begin() + static_cast<std::ptrdiff_t>(at),
                      all.begin() + static_cast<std::ptrdiff_t>(at + documents_[i].size()));
    at += documents_[i].size();
  }
}

void RerankListTask::write(const records::Batch& batch, std::size_t i, records::RecordOutput& out) {
  const std::vector<std::size_t> order = rank_order(scores_[i], settings_.top_k);
  out.results()
      .begin(batch.records[i], batch.truncated[i])
      .nested("results",
              [&](records::JsonLine& j) {
                j.begin_array();
                for (std::size_t d : order) {
                  j.begin_object().field("corpus_id", d).field("score", scores_[i][d]);
                  if (settings_.return_documents) j.field("text", documents_[i][d]);
                  j.end_object();
                }
                j.end_array();
              })
      .end();
}

RerankRowTask::RerankRowTask(CrossEncoder& scorer, core::BatchLimits limits, RerankSettings settings)
    : scorer_(scorer), limits_(limits), settings_(std::move(settings)) {}

const std::string& RerankRowTask::query_of(const records::Record& record) const {
  return settings_.query ? *settings_.query : record.text;
}

records::TextInput RerankRowTask::model_input(const records::Record& record, std::string&, std::string&) {
  if (settings_.query) return {*settings_.query, record.text};
  return {record.text, record.text_pair};
}

void RerankRowTask::compute(const records::Batch& batch) { scorer_.scores(batch.encodings, limits_, scores_); }

void RerankRowTask::write(const records::Batch& batch, std::size_t i, records::RecordOutput& out) {
  if (!group_.empty() && query_of(group_.front().record) != query_of(batch.records[i])) write_group(out);
  group_.push_back({batch.records[i], batch.truncated[i] != 0, scores_[i]});
}

void RerankRowTask::finish(records::RecordOutput& out) {
  if (group_.empty() || records::interrupted()) return;
  records::WritingScope writing;
  write_group(out);
  out.end_batch();
}

void RerankRowTask::write_group(records::RecordOutput& out) {
  std::vector<float> scores;
  for (const Row& row : group_) scores.push_back(row.score);
  const std::vector<std::size_t> order = rank_order(scores, settings_.top_k);
  for (std::size_t r = 0; r < order.size(); ++r) {
    const Row& row = group_[order[r]];
    out.results().begin(row.record, row.truncated).field("rank", r + 1).field("score", row.score).end();
  }
  group_.clear();
}

}  // namespace bertkit::cmd
