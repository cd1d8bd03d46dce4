#pragma once
// The flags every model command (embed, similarity, classify, fill-mask, qa) shares, and what they
// resolve to: the input, the output and its format (the pipeline options: cli/task_model.h).
//
//   auto flags = std::make_shared<TaskFlags>();
//   add_task_flags(sub, *flags, {.formats = {"jsonl", "tsv", "csv"}});
//   ... in the action:
//   TaskModel model = load_task_model(*flags);       // checkpoint, tokenizer, max length
//   records::PipelineOptions options = pipeline_options(*flags, model);
//   cmd::ClassifyTask task(...);
//   return run_task(*flags, options, *model.tokenizer, task);
#include "cli/input_flags.h"
#include "records/record_pipeline.h"
#include "records/result_writer.h"

#include <CLI/CLI.hpp>

#include <cstddef>
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace bertkit::cli {

struct TaskFlags : InputFlags {
  // Output
  std::string output = "-";
  bool resume = false;  // continue the earlier run's -o FILE
  std::string format;  // --format; empty: output_format() resolves it
  std::vector<std::string> formats;  // the formats offered
  std::string output_prefix;         // before every output field's name
  // Model
  std::string model;
  std::optional<std::size_t> max_length;
  std::string truncate = "right";
  std::string compat = "fast";
  std::string dtype;  // compute type; empty: the type the model file stores
  // Running
  std::size_t batch_size = 64;
  std::int64_t max_batch_tokens = 16384;
  std::string on_error = "fail";
  bool dry_run = false;
};

struct TaskFlagSet {
  const char* texts_help = "Texts (default: one per line from -i files or stdin)";  // nullptr: no positional
  bool pairs = true;                                                         // --pairs, --pair-column, --pair-field
  std::vector<std::string> formats = {"jsonl", "tsv", "csv"};                // the first is the default
};

void add_task_flags(CLI::App& sub, TaskFlags& flags, const TaskFlagSet& which = {});

// --resume (model commands and tokenize).
void add_resume_flag(CLI::App& sub, bool& resume);

// The output format (cli/output_format.h): --format, else the one -o's extension names, else the first
// offered.
std::string output_format(const TaskFlags& flags);
// output_format() (checked against the formats offered; a usage error otherwise).
records::ResultFormat result_format(const TaskFlags& flags);

// The interactive prompt (fill-mask, ner) reads typed sentences and answers on the terminal: the flags
// that read or write records (-o, --format, --resume, --csv, --field, ...) are a usage error naming them.
void refuse_record_flags_in_prompt(const TaskFlags& flags);

// Runs the task over the records (--on-error checked first); returns the exit status.
int run_task(const TaskFlags& flags, const records::PipelineOptions& options, const tok::Tokenizer& tokenizer,
             records::RecordTask& task);

}  // namespace bertkit::cli
