#include "commands/ner.h"

#include "core/error.h"

#include <utility>

namespace bertkit::cmd {

namespace {

const core::ModelConfig& with_token_classifier(const core::ModelConfig& config) {
  if (config.head != core::HeadKind::TokenClassification)
    usage_error("ner needs a token-classification model; {} has a {} head", config.architecture,
                core::head_name(config.head));
  return config;
}

}  // namespace

TokenClassifier::TokenClassifier(const core::ModelConfig& config, std::shared_ptr<const core::Weights> weights)
    : encoder_(with_token_classifier(config), weights), head_(config, *weights) {}

std::vector<std::vector<float>> TokenClassifier::logits(std::span<const tok::Encoding* const> windows,
                                                        const core::BatchLimits& limits) {
  const auto labels = static_cast<std::size_t>(head_.num_labels());
  std::vector<std::vector<float>> all(windows.size());
  std::vector<float> batch;
  run_encoder(
      encoder_, windows.size(), [&](std::size_t i) -> const tok::Encoding& { return *windows[i]; }, limits,
      [&](std::span<const std::size_t> indices, const core::EncoderOutput& out) {
        head_.forward(out, batch);
        for (std::size_t k = 0; k < indices.size(); ++k) {
          const auto from = batch.begin() + static_cast<std::ptrdiff_t>(static_cast<std::size_t>(out.offsets[k]) * labels);
          all[indices[k]].assign(from, from + static_cast<std::ptrdiff_t>(static_cast<std::size_t>(out.length(k)) * labels));
        }
      });
  return all;
}

void NerTask::compute(const records::Batch& batch) {
  // Every window of every record through the model together.
  std::vector<const tok::Encoding*> windows;
  std::vector<std::size_t> first(batch.size() + 1);
  for (std::size_t i = 0; i < batch.size(); ++i) {
    first[i] = windows.size();
    windows.push_back(&batch.encodings[i]);
    for (const tok::Encoding& o : batch.encodings[i].overflowing) windows.push_back(&o);
  }
  first[batch.size()] = windows.size();
  const std::vector<std::vector<float>> logits = classifier_.logits(windows, limits_);
  entities_.resize(batch.size());
  for (std::size_t i = 0; i < batch.size(); ++i) {
    const std::size_t n = first[i + 1] - first[i];
    entities_[i] = text_entities(tokenizer_, batch.records[i].text, std::span(windows).subspan(first[i], n),
                                 std::span(logits).subspan(first[i], n), classifier_.config().id2label, settings_);
  }
}

void NerTask::write(const records::Batch& batch, std::size_t i, records::RecordOutput& out) {
  const bool none = settings_.aggregation == Aggregation::None;
  out.results()
      .begin(batch.records[i], batch.truncated[i])
      .nested("entities",
              [&](records::JsonLine& j) {
                j.begin_array();
                for (const Entity& e : entities_[i]) {
                  j.begin_object().field(none ? "entity" : "entity_group", e.label).field("score", e.score);
                  if (none) j.field("index", e.index);
                  j.field("word", e.word)
                      .field("start", byte_offsets_ ? e.byte_start : e.start)
                      .field("end", byte_offsets_ ? e.byte_end : e.end)
                      .end_object();
                }
                j.end_array();
              })
      .end();
}

}  // namespace bertkit::cmd
