#include "commands/similarity.h"

#include "commands/encoder_batches.h"
#include "core/error.h"

#include <algorithm>

namespace bertkit::cmd {

namespace {

// "a is a better hit than b": higher score, then earlier in the corpus.
bool better(const Hit& a, const Hit& b) { return a.score != b.score ? a.score > b.score : a.index < b.index; }

}  // namespace

std::span<const float> embedding_row(const std::vector<float>& rows, std::size_t i, std::int64_t dim) {
  return {rows.data() + i * static_cast<std::size_t>(dim), static_cast<std::size_t>(dim)};
}

bool is_cross_encoder(const core::ModelConfig& config) {
  return config.head == core::HeadKind::SequenceClassification && config.num_labels == 1;
}

core::ScoreFunction cross_encoder_function(const core::ModelConfig& config) {
  const std::string_view name = config.cross_encoder_activation;
  if (name.empty()) return core::ScoreFunction::Sigmoid;  // CrossEncoder's default for one label
  const std::string_view cls = name.substr(name.rfind('.') == std::string_view::npos ? 0 : name.rfind('.') + 1);
  if (cls == "Sigmoid") return core::ScoreFunction::Sigmoid;
  if (cls == "Identity") return core::ScoreFunction::None;
  bad_input("config.json: the cross-encoder activation \"{}\" is not supported (Sigmoid or Identity)", name);
}

CrossEncoder::CrossEncoder(const core::ModelConfig& config, std::shared_ptr<const core::Weights> weights,
                           core::ScoreFunction function)
    : encoder_(config, weights), head_(config, *weights), function_(function) {}

void CrossEncoder::scores(std::span<const tok::Encoding> pairs, const core::BatchLimits& limits, std::vector<float>& out) {
  out.resize(pairs.size());
  const auto labels = static_cast<std::size_t>(head_.num_labels());
  run_encoder(encoder_, pairs, limits, [&](std::span<const std::size_t> indices, const core::EncoderOutput& output) {
    head_.forward(output, logits_);
    for (std::size_t k = 0; k < indices.size(); ++k) {
      std::span<float> row(logits_.data() + k * labels, labels);
      core::apply_score_function(function_, row);
      out[indices[k]] = row[0];
    }
  });
}

void TopK::offer(std::uint64_t index, float score, const records::Record& record) {
  if (k_ == 0) return;
  Hit hit{index, {}, score};
  if (heap_.size() == k_ && !better(hit, heap_.front())) return;
  hit.record = record;
  if (heap_.size() == k_) {
    std::pop_heap(heap_.begin(), heap_.end(), better);
    heap_.back() = std::move(hit);
  } else {
    heap_.push_back(std::move(hit));
  }
  std::push_heap(heap_.begin(), heap_.end(), better);
}

std::vector<Hit> TopK::sorted() const {
  std::vector<Hit> hits = heap_;
  std::sort(hits.begin(), hits.end(), better);
  return hits;
}

void PairTask::model_inputs(const records::Record& record, records::ModelInputs& inputs) {
  if (!scorer_.plan) return RecordTask::model_inputs(record, inputs);
  // A bi-encoder embeds the two texts apart: two model inputs.
  if (!record.has_pair) bad_input("expected a pair of texts");
  if (scorer_.colbert) {
    scorer_.colbert->add_query(record.text, inputs);
    return scorer_.colbert->add_document(record.text, record.text_pair, inputs);
  }
  inputs.text = model_text(*scorer_.plan, record.text);
  inputs.pair = model_text(*scorer_.plan, record.text_pair);
  inputs.texts.push_back({inputs.text, std::nullopt});
  inputs.texts.push_back({inputs.pair, std::nullopt});
}

void PairTask::compute(const records::Batch& batch) {
  if (scorer_.cross) {
    for (const records::Record& r : batch.records)
      if (!r.has_pair) bad_input("expected a pair of texts");
    return scorer_.cross->scores(batch.encodings, scorer_.limits, scores_);
  }
  if (scorer_.colbert) return scorer_.colbert->scores(batch, scorer_.limits, scores_);
  // The first texts in one model call, the second texts in another: each text keeps its place among
  // the batch's (the encoder's last bits can depend on it).
  for (std::size_t side = 0; side < 2; ++side) {
    side_.clear();
    for (std::size_t i = 0; i < batch.size(); ++i) side_.push_back(batch.encodings[batch.first_input[i] + side]);
    (side == 0 ? a_ : b_).embed(scorer_, side_, scorer_.limits);
  }
  const std::size_t kinds = scorer_.plan->vectors.size();
  scores_.resize(batch.size());
  parts_.resize(batch.size() * kinds);
  for (std::size_t i = 0; i < batch.size(); ++i)
    scores_[i] = pair_score(scorer_, a_, i, b_, i, std::span(parts_).subspan(i * kinds, kinds));
}

std::vector<std::string> PairTask::result_fields() const {
  if (!scorer_.hybrid()) return {"score"};
  return {"score", "scores"};
}

void PairTask::write(const records::Batch& batch, std::size_t i, records::RecordOutput& out) {
  records::ResultWriter& results = out.results().begin(batch.records[i], batch.truncated[i]).field("score", scores_[i]);
  if (scorer_.hybrid()) {
    // Each kind's own score beside the weighted one, as compute_score returns them.
    const auto& kinds = scorer_.plan->vectors;
    results.nested("scores", [&](records::JsonLine& j) {
      j.begin_object();
      for (std::size_t k = 0; k < kinds.size(); ++k) j.key(vector_kind_info(kinds[k]).name).value(parts_[i * kinds.size() + k]);
      j.end_object();
    });
  }
  results.end();
}

}  // namespace bertkit::cmd
