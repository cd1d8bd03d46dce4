#pragma once
// `bertkit ner`: token classification (named entities), as transformers' token-classification
// pipeline finds them (commands/ner_entities.h): one window of the text, or with a stride overlapping
// windows whose entities are merged. Written as records, or as CoNLL or inline text.
#include "commands/encoder_batches.h"
#include "commands/ner_entities.h"
#include "commands/ner_words.h"
#include "core/model/encoder.h"
#include "core/model/token_classification_head.h"
#include "records/record_pipeline.h"
#include "tokenizer/tokenizer.h"

#include <memory>
#include <span>
#include <string>
#include <string_view>
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

// How records come out: JSONL/TSV/CSV records with their `entities` field, or whole lines of text
// (commands/ner_layouts.h): CoNLL's word per line, or the text with its entities marked.
enum class NerLayout { Records, Conll, Inline };

// "jsonl", "tsv" and "csv" are Records; "conll" and "inline" their layouts.
NerLayout parse_ner_layout(std::string_view format);

struct NerOutput {
  NerLayout layout = NerLayout::Records;
  bool byte_offsets = false;  // Records: start and end in UTF-8 bytes, not code points
};

// Each record's `entities`, offsets in code points (or bytes), or its lines in a text layout. A
// record's windows are its encoding and the encoding's overflowing windows (tokenized with a stride).
class NerTask : public records::RecordTask {
 public:
  // Inline marks entities, so --aggregation none, whose tokens are no entities, marks those of first.
  NerTask(TokenClassifier& classifier, const tok::Tokenizer& tokenizer, NerSettings settings, NerOutput output,
          const core::BatchLimits& limits);

  // None for the text layouts: write() writes their lines itself.
  std::vector<std::string> result_fields() const override;
  void compute(const records::Batch& batch) override;
  void write(const records::Batch& batch, std::size_t i, records::RecordOutput& out) override;
  // The text layouts keep a record's place with an empty line (inline) or an empty sentence (conll).
  void write_failed(const records::Record& record, const std::string& error, records::RecordOutput& out) override;

 private:
  void write_entities(const records::Batch& batch, std::size_t i, records::RecordOutput& out);

  TokenClassifier& classifier_;
  const tok::Tokenizer& tokenizer_;
  NerSettings settings_;
  NerOutput output_;
  core::BatchLimits limits_;
  std::vector<std::vector<Entity>> entities_;
  std::vector<std::vector<LabelledWord>> words_;  // CoNLL
};

}  // namespace bertkit::cmd
