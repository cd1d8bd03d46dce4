#pragma once
// `bertkit fill-mask`: the most likely tokens for every mask token of a text, as transformers'
// fill-mask pipeline gives them: softmax over the whole vocabulary, optionally restricted to target
// tokens (not renormalised), and for each candidate the text with the mask filled in.
#include "core/model/batching.h"
#include "core/model/encoder.h"
#include "core/model/mlm_head.h"
#include "records/record_pipeline.h"
#include "tokenizer/tokenizer.h"

#include <cstdint>
#include <memory>
#include <span>
#include <string>
#include <vector>

namespace bertkit::cmd {

struct MaskPrediction {
  float score = 0;           // probability
  std::int32_t token = 0;    // id
  std::string token_str;     // the token decoded on its own
  std::string sequence;      // the input decoded with this token in place of the mask
};

// One list of predictions per mask token, in text order.
using MaskPredictions = std::vector<std::vector<MaskPrediction>>;

struct FillMaskOptions {
  std::size_t top_k = 5;
  std::vector<std::int32_t> targets;  // candidate ids (empty: the whole vocabulary)
};

struct ResolvedTargets {
  std::vector<std::int32_t> ids;     // distinct
  std::vector<std::string> notes;    // targets that are not vocabulary tokens, and what replaced them
};

// transformers' rule: a target that is a vocabulary token is that token; otherwise the first token of
// its tokenization (with a note), or nothing when it has no tokens. None left is a usage error.
ResolvedTargets resolve_targets(const tok::Tokenizer& tokenizer, std::span<const std::string> targets);

// Positions of the mask token; a BadInput error when there is none.
std::vector<std::int64_t> mask_positions(const tok::Tokenizer& tokenizer, const tok::Encoding& encoding);

// The predictions at one mask from its vocabulary probabilities. `ids` is the whole input; with
// several masks (`single_mask` false) the sequence keeps the special tokens and the other masks.
std::vector<MaskPrediction> predictions_at(const tok::Tokenizer& tokenizer, std::span<const float> probabilities,
                                           std::span<const std::int32_t> ids, std::size_t position,
                                           bool single_mask, const FillMaskOptions& options);

class FillMasker {
 public:
  // Refuses (usage error) a model without a masked-language-model head, or a tokenizer without a mask.
  FillMasker(const core::ModelConfig& config, std::shared_ptr<const core::Weights> weights,
             const tok::Tokenizer& tokenizer);

  // Predictions for every encoding (each must hold a mask: see mask_positions), in input order.
  std::vector<MaskPredictions> run(std::span<const tok::Encoding> encodings, const FillMaskOptions& options,
                                   const core::BatchLimits& limits);

 private:
  const tok::Tokenizer& tokenizer_;
  core::Encoder encoder_;
  core::MlmHead head_;
};

// Each record's `predictions` (see write_predictions).
class FillMaskTask : public records::RecordTask {
 public:
  FillMaskTask(FillMasker& masker, const FillMaskOptions& options, const core::BatchLimits& limits)
      : masker_(masker), options_(options), limits_(limits) {}

  std::vector<std::string> result_fields() const override { return {"predictions"}; }
  void compute(const records::Batch& batch) override { predictions_ = masker_.run(batch.encodings, options_, limits_); }
  void write(const records::Batch& batch, std::size_t i, records::RecordOutput& out) override;

 private:
  FillMasker& masker_;
  const FillMaskOptions& options_;
  core::BatchLimits limits_;
  std::vector<MaskPredictions> predictions_;
};

}  // namespace bertkit::cmd
