#include "commands/ner.h"

#include "commands/ner_layouts.h"
#include "core/error.h"

#include <utility>

namespace bertkit::cmd {

namespace {

const core::ModelConfig& with_token_classifier(const core::ModelConfig& config) {
  return core::require_head(
      config, [](const core::ModelConfig& c) { return c.head == core::HeadKind::TokenClassification; }, "ner",
      "token-classification");
}

}  // namespace

NerLayout parse_ner_layout(std::string_view format) {
  if (format == "conll") return NerLayout::Conll;
  if (format == "inline") return NerLayout::Inline;
  return NerLayout::Records;
}

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

NerTask::NerTask(TokenClassifier& classifier, const tok::Tokenizer& tokenizer, NerSettings settings, NerOutput output,
                 const core::BatchLimits& limits)
    : classifier_(classifier), tokenizer_(tokenizer), settings_(std::move(settings)), output_(output), limits_(limits) {
  if (output_.layout == NerLayout::Inline && settings_.aggregation == Aggregation::None)
    settings_.aggregation = Aggregation::First;
}

std::vector<std::string> NerTask::result_fields() const {
  if (output_.layout != NerLayout::Records) return {};
  return {"entities"};
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
  const auto& id2label = classifier_.config().id2label;
  const bool conll = output_.layout == NerLayout::Conll;
  entities_.assign(conll ? 0 : batch.size(), {});
  words_.assign(conll ? batch.size() : 0, {});
  for (std::size_t i = 0; i < batch.size(); ++i) {
    const std::size_t n = first[i + 1] - first[i];
    const auto record_windows = std::span(windows).subspan(first[i], n);
    const auto record_logits = std::span(logits).subspan(first[i], n);
    if (conll) words_[i] = text_words(record_windows, record_logits, id2label, settings_);
    else entities_[i] = text_entities(tokenizer_, batch.records[i].text, record_windows, record_logits, id2label, settings_);
  }
}

void NerTask::write(const records::Batch& batch, std::size_t i, records::RecordOutput& out) {
  switch (output_.layout) {
    case NerLayout::Records: return write_entities(batch, i, out);
    case NerLayout::Conll: return out.writer().write(conll_lines(batch.records[i].text, words_[i]));
    case NerLayout::Inline: return out.writer().write(inline_line(batch.records[i].text, entities_[i]));
  }
}

void NerTask::write_failed(const records::Record& record, const std::string& error, records::RecordOutput& out) {
  if (output_.layout == NerLayout::Records) return out.failed(record, error);
  out.writer().write("\n");
}

void NerTask::write_entities(const records::Batch& batch, std::size_t i, records::RecordOutput& out) {
  const bool none = settings_.aggregation == Aggregation::None;
  out.results()
      .begin(batch.records[i], batch.truncated[i])
      .nested("entities",
              [&](records::JsonLine& j) {
                j.begin_array();
                for (const Entity& e : entities_[i]) {
                  j.begin_object().field(none ? "entity" : "entity_group", e.label).field("score", e.score);
                  if (none) j.field("index", e.index);
                  j.field("word", e.word);
                  if (settings_.slow_tokenizer) {
                    j.key("start").null().key("end").null();
                  } else {
                    j.field("start", output_.byte_offsets ? e.byte_start : e.start)
                        .field("end", output_.byte_offsets ? e.byte_end : e.end);
                  }
                  j.end_object();
                }
                j.end_array();
              })
      .end();
}

}  // namespace bertkit::cmd
