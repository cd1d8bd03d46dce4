#include "commands/convert_verify.h"

#include "core/model/family_spec.h"

#include "commands/embed.h"
#include "commands/encoder_batches.h"
#include "core/model/classification_head.h"
#include "core/model/encoder.h"
#include "core/model/mlm_head.h"
#include "core/model/pooling.h"
#include "core/model/qa_head.h"
#include "core/model/similarity.h"
#include "core/model/token_classification_head.h"

#include <algorithm>
#include <cmath>

namespace bertkit::cmd {
namespace {

constexpr const char* kDefaultTexts[] = {
    "The quick brown fox jumps over the lazy dog.",
    "A man is eating food.",
    "Paris is the capital and most populous city of France.",
    "I loved this movie: the acting was superb and the story kept me guessing until the very end.",
    "The service was slow, the food was cold, and nobody apologised.",
    "How do I reset my password if I no longer have access to my email account?",
    "Interest rates rose again this quarter as the central bank tried to bring inflation under control.",
    "The patient was given antibiotics and discharged after three days of observation.",
    "Photosynthesis converts light energy into chemical energy stored in glucose.",
    "She plays the violin in a string quartet every Thursday evening.",
    "Please submit the report by Friday.",
    "The new smartphone features a larger battery, a faster processor and an improved camera.",
    "Rain is expected tomorrow across most of the northern regions, with strong winds along the coast.",
    "Can you recommend a good book about the history of mathematics?",
    "The committee postponed its decision until more data becomes available.",
    "Thanks!",
};

// One input's outputs in one compute type.
struct Outputs {
  std::vector<std::vector<float>> embedding, classification, fill_mask, qa;
  // One row per token of the text (special tokens left out, as the ner pipeline drops them), all
  // inputs' tokens one after another.
  std::vector<std::vector<float>> token_labels;
};

Outputs run(const core::LoadedModel& model, std::shared_ptr<const core::Weights> weights,
            std::span<const tok::Encoding> encodings, std::span<const tok::Encoding> masked,
            std::span<const std::int64_t> mask_at, const core::BatchLimits& limits) {
  const core::ModelConfig& config = model.config;
  const std::size_t n = encodings.size();
  Outputs o;
  o.embedding.resize(n);
  core::Encoder encoder(config, weights);
  core::SentencePooler pooler(plan_embedding(model, {}).modules, config.hidden_size, *weights);
  std::optional<core::ClassificationHead> classifier;
  std::optional<core::QaHead> qa;
  if (config.head == core::HeadKind::SequenceClassification) {
    classifier.emplace(config, *weights);
    o.classification.resize(n);
  }
  if (config.head == core::HeadKind::QuestionAnswering) {
    qa.emplace(config, *weights);
    o.qa.resize(n);
  }
  std::optional<core::TokenClassificationHead> tagger;
  std::vector<std::vector<std::vector<float>>> token_rows;  // per input, so the order is the input's
  if (config.head == core::HeadKind::TokenClassification) {
    tagger.emplace(config, *weights);
    token_rows.resize(n);
  }
  std::vector<float> values;
  core::SpanLogits spans;
  run_encoder(encoder, encodings, limits, [&](std::span<const std::size_t> indices, const core::EncoderOutput& out) {
    pooler.forward(out, values);
    const std::size_t dim = values.size() / indices.size();
    for (std::size_t k = 0; k < indices.size(); ++k)
      o.embedding[indices[k]].assign(values.begin() + k * dim, values.begin() + (k + 1) * dim);
    if (classifier) {
      classifier->forward(out, values);
      const std::size_t labels = values.size() / indices.size();
      for (std::size_t k = 0; k < indices.size(); ++k)
        o.classification[indices[k]].assign(values.begin() + k * labels, values.begin() + (k + 1) * labels);
    }
    if (qa) {
      qa->forward(out, spans);
      for (std::size_t k = 0; k < indices.size(); ++k) {
        auto from = out.offsets[k], to = out.offsets[k + 1];
        auto& row = o.qa[indices[k]];
        row.assign(spans.start.begin() + from, spans.start.begin() + to);
        row.insert(row.end(), spans.end.begin() + from, spans.end.begin() + to);
      }
    }
    if (tagger) {
      tagger->forward(out, values);
      const std::size_t labels = static_cast<std::size_t>(tagger->num_labels());
      for (std::size_t k = 0; k < indices.size(); ++k) {
        const tok::Encoding& e = encodings[indices[k]];
        const auto length = static_cast<std::size_t>(out.length(k));
        for (std::size_t t = 0; t < length; ++t) {
          if (t < e.special_mask.size() && e.special_mask[t]) continue;
          auto row = values.begin() + static_cast<std::ptrdiff_t>((static_cast<std::size_t>(out.offsets[k]) + t) * labels);
          token_rows[indices[k]].emplace_back(row, row + static_cast<std::ptrdiff_t>(labels));
        }
      }
    }
  });
  for (auto& rows : token_rows)
    for (auto& row : rows) o.token_labels.push_back(std::move(row));
  if (!masked.empty()) {
    core::MlmHead mlm(config, *weights);
    o.fill_mask.resize(n);
    std::vector<core::TokenPosition> positions;
    run_encoder(encoder, masked, limits, [&](std::span<const std::size_t> indices, const core::EncoderOutput& out) {
      positions.clear();
      for (std::size_t k = 0; k < indices.size(); ++k) positions.push_back({k, mask_at[indices[k]]});
      mlm.forward(out, positions, values);
      const std::size_t vocab = values.size() / indices.size();
      for (std::size_t k = 0; k < indices.size(); ++k)
        o.fill_mask[indices[k]].assign(values.begin() + k * vocab, values.begin() + (k + 1) * vocab);
    });
  }
  return o;
}

std::size_t argmax(std::span<const float> v) {
  return static_cast<std::size_t>(std::max_element(v.begin(), v.end()) - v.begin());
}

// Top-1 minus top-2 logit (0 with fewer than two).
double top_margin(std::span<const float> v) {
  if (v.size() < 2) return 0;
  float first = std::max(v[0], v[1]), second = std::min(v[0], v[1]);
  for (std::size_t j = 2; j < v.size(); ++j) {
    if (v[j] > first) {
      second = first;
      first = v[j];
    } else if (v[j] > second) {
      second = v[j];
    }
  }
  return double(first) - double(second);
}

HeadAgreement compare(const std::vector<std::vector<float>>& a, const std::vector<std::vector<float>>& b, bool two_halves) {
  HeadAgreement h;
  std::vector<double> margins;
  for (std::size_t i = 0; i < a.size(); ++i) {
    std::span<const float> x = a[i], y = b[i];
    for (std::size_t j = 0; j < x.size(); ++j) h.max_abs_diff = std::max(h.max_abs_diff, double(std::fabs(x[j] - y[j])));
    bool same;
    double margin;
    if (two_halves) {  // QA: start logits then end logits
      const std::size_t half = x.size() / 2;
      same = argmax(x.first(half)) == argmax(y.first(half)) && argmax(x.subspan(half)) == argmax(y.subspan(half));
      margin = std::min(top_margin(x.first(half)), top_margin(x.subspan(half)));
    } else {
      same = argmax(x) == argmax(y);
      margin = top_margin(x);
    }
    h.agree += same;
    ++h.total;
    margins.push_back(margin);
    if (!same) h.max_flipped_margin = std::max(h.max_flipped_margin, margin);
  }
  if (!margins.empty()) {
    auto middle = margins.begin() + static_cast<std::ptrdiff_t>(margins.size() / 2);
    std::nth_element(margins.begin(), middle, margins.end());
    h.median_margin = *middle;
  }
  return h;
}

}  // namespace

std::span<const char* const> default_verify_texts() { return kDefaultTexts; }

VerifyReport verify_reduced(const core::LoadedModel& model, std::shared_ptr<const core::Weights> reference,
                            std::shared_ptr<const core::Weights> reduced, std::span<const tok::Encoding> encodings,
                            std::int32_t mask_id, const core::BatchLimits& limits) {
  const bool mlm = mask_id >= 0 && core::architecture_spec(model.config).mlm;
  std::vector<tok::Encoding> masked;
  std::vector<std::int64_t> mask_at;
  if (mlm)
    for (const auto& e : encodings) {
      // The middle token; with [CLS] and [SEP] around the text it is a word piece of the text itself.
      masked.push_back(e);
      mask_at.push_back(static_cast<std::int64_t>(e.ids.size() / 2));
      masked.back().ids[e.ids.size() / 2] = mask_id;
    }
  Outputs a = run(model, std::move(reference), encodings, masked, mask_at, limits);
  Outputs b = run(model, std::move(reduced), encodings, masked, mask_at, limits);

  VerifyReport r;
  r.texts = encodings.size();
  double sum = 0;
  for (std::size_t i = 0; i < r.texts; ++i) {
    double c = core::similarity(core::Metric::Cosine, a.embedding[i], b.embedding[i]);
    sum += c;
    r.cosine_min = std::min(r.cosine_min, c);
  }
  r.cosine_mean = r.texts ? sum / static_cast<double>(r.texts) : 1.0;
  if (!a.classification.empty()) r.classification = compare(a.classification, b.classification, false);
  if (!a.fill_mask.empty()) r.fill_mask = compare(a.fill_mask, b.fill_mask, false);
  if (!a.qa.empty()) r.qa = compare(a.qa, b.qa, true);
  if (!a.token_labels.empty()) r.token_classification = compare(a.token_labels, b.token_labels, false);
  return r;
}

}  // namespace bertkit::cmd
