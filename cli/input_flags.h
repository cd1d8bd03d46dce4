#pragma once
// The input flags every subcommand that reads records shares (texts, -i, --csv/--tsv/--jsonl,
// --column/--field, --pairs, --strict), and the pipeline input they describe.
#include "records/open_reader.h"

#include <CLI/CLI.hpp>

#include <string>
#include <vector>

namespace bertkit::cli {

struct InputFlags {
  std::vector<std::string> texts;   // positional
  std::vector<std::string> inputs;  // -i (empty: stdin unless texts are given)
  bool pairs = false;
  bool csv = false, tsv = false, jsonl = false;
  std::string input_format = "auto";  // tokenize's older spelling of --csv/--tsv/--jsonl (and lines)
  std::string column, pair_column;
  std::string field = "text", pair_field;
  std::string delimiter;     // --delimiter: CSV's field delimiter, one character; empty: ','
  bool tsv_escapes = false;  // --tsv-escapes
  bool strict_utf8 = false;
  std::size_t max_line_bytes = records::kDefaultMaxRecordBytes;
  int batch_wait_ms = 50;  // records::PipelineOptions::batch_wait_ms
  // Whether the user gave the shape flags (commands fill in defaults of their own: qa's question column).
  CLI::Option *pairs_flag = nullptr, *column_flag = nullptr, *pair_column_flag = nullptr, *field_flag = nullptr,
              *pair_field_flag = nullptr, *batch_wait_flag = nullptr, *delimiter_flag = nullptr,
              *tsv_escapes_flag = nullptr;
};

struct InputFlagSet {
  const char* texts_help = "Texts (default: one per line from -i files or stdin)";  // nullptr: no positional
  bool pairs = true;                 // --pairs, --pair-column, --pair-field
  bool input_format_alias = false;   // also --input-format (tokenize, where it was the first spelling)
  bool one_file_per_input = false;   // a word after -i FILE is a text, not another file (tokenize)
};

void add_input_flags(CLI::App& sub, InputFlags& flags, const InputFlagSet& which = {});

// The input the flags describe. `on_bad_record`: Flag where --on-error decides, else Fail.
records::InputSpec input_spec(const InputFlags& flags, records::OnBadRecord on_bad_record = records::OnBadRecord::Flag);

// One input format at most (a usage error otherwise).
void check_input_format(const InputFlags& flags);

// --batch-wait (records::PipelineOptions::batch_wait_ms); given with text arguments, which are all
// there at once, it is a usage error.
int batch_wait_ms(const InputFlags& flags);

}  // namespace bertkit::cli
