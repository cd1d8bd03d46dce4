#pragma once
// `bertkit ner`: token classification (named entities), as transformers' token-classification
// pipeline finds them (commands/ner_entities.h): one window of the text, or with a stride overlapping
// windows whose entities are merged.
#include "commands/encoder_batches.h"
#include "commands/ner_entities.h"
#include "core/model/encoder.h"
#include "core/model/token_classification_head.h"
#include "records/record_pipeline.h"
#include "tokenizer/tokenizer.h"

#include <memory>
#include <span>
#include <string>
#include <utility>
#include <vector>

namespace bertkit::cmd {

class TokenClassifier {
 public:
  // Refuses (usage error) a model without a token-classification head.
  TokenClassifier(const core::ModelConfig& config, std::shared_ptr<const core::Weights> weights);

  // Raw logits of each window, [window size * labels] each, in input order.
  std::vector<std::vector<float>> logits(std::span<const tok::Encoding* const> windows, const core::BatchLimits& limits);

  const core::ModelConfig& config() const { return encoder_.config(); }

 private:
  core::Encoder encoder_;
  core::TokenClassificationHead head_;
};

// Each record's `entities`, offsets in code points (or `byte_offsets`: UTF-8 bytes). A record's
// windows are its encoding and the encoding's overflowing windows (tokenized with a stride).
class NerTask : public records::RecordTask {
 public:
  NerTask(TokenClassifier& classifier, const tok::Tokenizer& tokenizer, NerSettings settings, bool byte_offsets,
          const core::BatchLimits& limits)
      : classifier_(classifier), tokenizer_(tokenizer), settings_(std::move(settings)), byte_offsets_(byte_offsets),
        limits_(limits) {}

  std::vector<std::string> result_fields() const override { return {"entities"}; }
  void compute(const records::Batch& batch) override;
  void write(const records::Batch& batch, std::size_t i, records::RecordOutput& out) override;

 private:
  TokenClassifier& classifier_;
  const tok::Tokenizer& tokenizer_;
  NerSettings settings_;
  bool byte_offsets_;
  core::BatchLimits limits_;
  std::vector<std::vector<Entity>> entities_;
};

}  // namespace bertkit::cmd
