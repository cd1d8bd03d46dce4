#pragma once
// `bertkit convert --verify`: what a reduced compute type costs on real text. The same inputs run
// through the model in f32 and in the reduced type, and every output the model has is compared.
#include "core/loading/model_source.h"
#include "core/model/batching.h"
#include "tokenizer/encoding.h"

#include <cstddef>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <vector>

namespace bertkit::cmd {

// Texts to verify on when the user gives none: everyday English of varied length and topic.
std::span<const char* const> default_verify_texts();

struct HeadAgreement {
  std::size_t agree = 0, total = 0;  // inputs (tokens, for token labels) whose top-1 (argmax of the logits) is the same
  double max_abs_diff = 0;           // of any logit
  // How close the f32 top-1 was to its runner-up (top-1 minus top-2 logit; QA: the smaller of start and
  // end): a top-1 can only change where this margin is under twice the logit difference, so these say
  // whether disagreements are near-ties (random-weight models are full of them) or real changes.
  double max_flipped_margin = 0;  // largest f32 margin among the inputs that disagree
  double median_margin = 0;       // over all inputs
};

struct VerifyReport {
  std::size_t texts = 0;
  double cosine_mean = 0, cosine_min = 1;  // of the sentence embeddings (the model's pooling)
  std::optional<HeadAgreement> fill_mask;       // the middle token of each text masked
  std::optional<HeadAgreement> classification;
  std::optional<HeadAgreement> qa;              // top-1: both the start and the end token
  std::optional<HeadAgreement> token_classification;  // per token of the texts: its label
};

// `reference` and `reduced` are the same model (config, sentence-transformers modules) with weights in
// f32 and in the reduced type; `mask_id` < 0 skips the fill-mask comparison.
VerifyReport verify_reduced(const core::LoadedModel& model, std::shared_ptr<const core::Weights> reference,
                            std::shared_ptr<const core::Weights> reduced, std::span<const tok::Encoding> encodings,
                            std::int32_t mask_id, const core::BatchLimits& limits);

}  // namespace bertkit::cmd
