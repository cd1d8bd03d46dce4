#pragma once
// What the model commands share for a PyLate ColBERT model (-m with a pylate Dense module): the
// maximum length the tokenizer cuts texts at, and `embed`'s run.
#include "cli/task_model.h"
#include "commands/colbert_scores.h"
#include "commands/colbert_vectors.h"
#include "core/model/embedding_precision.h"

#include <cstdint>
#include <memory>
#include <optional>
#include <string>

namespace bertkit::cli {

bool is_colbert(const TaskModel& model);

// The tokenizer keeps `text_tokens` tokens (PyLate's length − 1 before the prefix goes in): set as the
// model's maximum length, from `from`. --max-length is refused: query_length and document_length of
// config_sentence_transformers.json are the lengths.
void set_colbert_length(const TaskFlags& flags, TaskModel& model, std::int64_t text_tokens, std::string from);

struct ColbertEmbedFlags {
  std::optional<std::string> prompt;  // "query" or "document" (the default)
  core::Precision precision = core::Precision::Float32;
  std::string precision_name = "float32", calibration;
};

// The encoder and MaxSim scorer of `similarity` pairs and `rerank`: the tokenizer keeps the longer of
// the two sides' lengths, each side is cut to its own after.
struct ColbertPairs {
  std::unique_ptr<cmd::ColbertEncoder> encoder;
  std::unique_ptr<cmd::ColbertScorer> scorer;
};
ColbertPairs colbert_pairs(const TaskFlags& flags, TaskModel& model, core::MaxSimReduction reduction);

int run_colbert_embed(const TaskFlags& flags, TaskModel& model, const ColbertEmbedFlags& embed);

}  // namespace bertkit::cli
