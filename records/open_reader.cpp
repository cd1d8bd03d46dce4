#include "records/open_reader.h"

#include "records/argument_reader.h"
#include "records/csv_reader.h"
#include "records/jsonl_reader.h"
#include "records/line_reader.h"
#include "core/error.h"

#include <unistd.h>

#include <algorithm>
#include <cctype>

namespace bertkit::records {

namespace {

bool has_extension(const std::string& path, std::string_view ext) {
  if (path.size() < ext.size()) return false;
  return std::equal(ext.begin(), ext.end(), path.end() - static_cast<std::ptrdiff_t>(ext.size()),
                    [](char a, char b) { return a == std::tolower(static_cast<unsigned char>(b)); });
}

InputFormat format_of(std::string path) {
  // A gzip input is decompressed as it is read (records/byte_stream.h): reviews.csv.gz is CSV.
  if (has_extension(path, ".gz")) path.resize(path.size() - 3);
  if (has_extension(path, ".csv")) return InputFormat::Csv;
  if (has_extension(path, ".tsv")) return InputFormat::Tsv;
  if (has_extension(path, ".jsonl") || has_extension(path, ".ndjson")) return InputFormat::Jsonl;
  return InputFormat::Lines;
}

const char* format_name(InputFormat format) {
  switch (format) {
    case InputFormat::Csv: return "CSV";
    case InputFormat::Tsv: return "TSV";
    case InputFormat::Jsonl: return "JSONL";
    default: return "plain text";
  }
}

}  // namespace

InputFormat resolve_format(const std::vector<std::string>& paths, InputFormat format) {
  if (format != InputFormat::Auto) return format;
  InputFormat found = InputFormat::Lines;
  for (std::size_t i = 0; i < paths.size(); ++i) {
    InputFormat here = format_of(paths[i]);
    if (i > 0 && here != found)
      usage_error("{} is {} but {} is {}: name the format (--csv, --tsv, --jsonl) or give inputs of one kind",
                  paths[0], format_name(found), paths[i], format_name(here));
    found = here;
  }
  return found;
}

namespace {

std::unique_ptr<RecordReader> open_arguments(const InputSpec& spec) {
  std::vector<std::string> texts = spec.texts;
  bool pairs = spec.pairs;
  if (spec.texts_pair && !pairs) {
    if (texts.size() != 2) usage_error("give two texts to compare (or --pairs with text<TAB>text_pair arguments)");
    for (const auto& t : texts)
      if (t.find('\t') != std::string::npos) usage_error("a text argument holds a tab: use --pairs with text<TAB>text_pair");
    texts = {texts[0] + '\t' + texts[1]};
    pairs = true;
  }
  if (!spec.paths.empty()) usage_error("give texts as arguments or files with -i, not both");
  if (spec.format != InputFormat::Auto || !spec.column.empty() || !spec.pair_column.empty())
    usage_error("--csv, --tsv, --jsonl and --column describe -i files, not texts given as arguments");
  return std::make_unique<ArgumentReader>(std::move(texts), pairs, spec.options.strict_utf8);
}

// A column named for input that has none would be silently ignored.
void refuse_columns(const InputSpec& spec, InputFormat format) {
  if (spec.column.empty() && spec.pair_column.empty()) return;
  usage_error("--column and --pair-column name CSV/TSV columns, but {} is read as {}: give --csv or --tsv{}",
              spec.paths.empty() ? std::string("stdin") : spec.paths[0], format_name(format),
              format == InputFormat::Jsonl ? " (or --field and --pair-field for JSONL)" : "");
}

}  // namespace

std::unique_ptr<RecordReader> open_reader(const InputSpec& spec) {
  if (!spec.texts.empty()) return open_arguments(spec);
  InputFormat format = resolve_format(spec.paths, spec.format);
  switch (format) {
    case InputFormat::Csv:
    case InputFormat::Tsv: {
      TableOptions table;
      table.delimiter = format == InputFormat::Csv ? ',' : '\t';
      table.column = spec.column;
      table.pair_column = spec.pair_column;
      return std::make_unique<CsvReader>(spec.paths, table, spec.options);
    }
    case InputFormat::Jsonl: {
      refuse_columns(spec, format);
      JsonlOptions jsonl;
      jsonl.field = spec.field;
      jsonl.pair_field = spec.pair_field;
      return std::make_unique<JsonlReader>(spec.paths, jsonl, spec.options);
    }
    default:
      refuse_columns(spec, format);
      return std::make_unique<LineReader>(spec.paths, spec.options, spec.pairs);
  }
}

bool reads_terminal(const InputSpec& spec) {
  if (!spec.texts.empty()) return false;
  bool stdin_used = spec.paths.empty();
  for (const auto& p : spec.paths) stdin_used = stdin_used || p == "-";
  return stdin_used && ::isatty(0) == 1;
}

}  // namespace bertkit::records
