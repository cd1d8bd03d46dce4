#pragma once
// What every model command loads from -m: the checkpoint, its tokenizer, the maximum input length,
// and the settings --dry-run prints.
#include "records/record_pipeline.h"
#include "cli/task_flags.h"
#include "core/loading/model_source.h"
#include "tokenizer/tokenizer.h"

#include <filesystem>
#include <memory>
#include <string>
#include <utility>
#include <vector>

namespace bertkit::cli {

struct TaskModel {
  core::LoadedModel loaded;                      // its weights are moved into `weights`
  std::shared_ptr<const core::Weights> weights;  // what the encoder and heads read
  std::unique_ptr<tok::Tokenizer> tokenizer;
  std::size_t max_length = 0;                    // tokens, special tokens included
  std::string max_length_from;                   // which setting decided it
  std::string dtype;                             // the type Linear layers compute in: f32, bf16 or int8
};

// Loads -m. The maximum length is --max-length, else sentence-transformers' max_seq_length, else the
// tokenizer's model_max_length, and never more than the model's position embeddings.
TaskModel load_task_model(const TaskFlags& flags);

// Tokenization (truncation to max_length, no padding), batching and the error policy of the flags.
records::PipelineOptions pipeline_options(const TaskFlags& flags, const TaskModel& model);
// The same without the tokenization, for a model read otherwise (a static embedding model).
records::PipelineOptions pipeline_options(const TaskFlags& flags, const std::vector<std::filesystem::path>& model_files);

// Resolved settings, printed by --dry-run as "name: value" lines in the order added.
class Settings {
 public:
  Settings& add(std::string name, std::string value);
  // Replaces a common setting where the command does otherwise (qa's windows, search's inputs).
  Settings& set(const std::string& name, std::string value);
  std::string text() const;

 private:
  std::vector<std::pair<std::string, std::string>> items_;
};

// The settings every model command shares (model, architecture, head, input, output, max length,
// truncation, dtype, threads, batching); a command adds its own (pooling, prompt, ...).
Settings common_settings(const TaskFlags& flags, const TaskModel& model);
// The part of them that is no model's: threads, batching, padding, on error, input, output.
void add_run_settings(Settings& s, const TaskFlags& flags);

}  // namespace bertkit::cli
