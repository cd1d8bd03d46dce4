#pragma once
// The flags every model command (embed, similarity, classify, fill-mask, qa) shares, and what they
// resolve to: the input reader, the output format, the pipeline options.
//
//   auto flags = std::make_shared<TaskFlags>();
//   add_task_flags(sub, *flags, {.formats = {"jsonl", "tsv", "csv"}});
//   ... in the action:
//   auto reader = open_task_input(*flags);          // checks the input's structure first
//   TaskModel model = load_task_model(*flags);       // checkpoint, tokenizer, max length
//   records::PipelineOptions options = pipeline_options(*flags, model);
#include "records/open_reader.h"
#include "records/record_reader.h"

#include <CLI/CLI.hpp>

#include <cstddef>
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace bertkit::cli {

struct TaskFlags {
  // Input
  std::vector<std::string> texts;   // positional
  std::vector<std::string> inputs;  // -i (empty: stdin unless texts are given)
  bool pairs = false;
  bool csv = false, tsv = false, jsonl = false;
  std::string column, pair_column;
  std::string field = "text", pair_field;
  bool strict_utf8 = false;
  // Output
  std::string output = "-";
  std::string format;  // after parsing: --format, else from -o's extension, else the first format offered
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

// The records: texts given as arguments, else the -i files (or stdin), their structure checked.
// Call before creating the output.
std::unique_ptr<records::RecordReader> open_task_input(const TaskFlags& flags);

// The input spec the flags describe (for commands with inputs of their own, like --corpus).
records::InputSpec task_input_spec(const TaskFlags& flags, std::vector<std::string> paths);

// Whether records come from a terminal: then they are handled one at a time as they are typed.
bool input_is_terminal(const TaskFlags& flags);

}  // namespace bertkit::cli
