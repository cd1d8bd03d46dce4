#include "records/open_reader.h"

#include "records/csv_reader.h"
#include "records/jsonl_reader.h"
#include "records/line_reader.h"
#include "core/error.h"

#include <algorithm>
#include <cctype>

namespace bertkit::records {

namespace {

bool has_extension(const std::string& path, std::string_view ext) {
  if (path.size() < ext.size()) return false;
  return std::equal(ext.begin(), ext.end(), path.end() - static_cast<std::ptrdiff_t>(ext.size()),
                    [](char a, char b) { return a == std::tolower(static_cast<unsigned char>(b)); });
}

InputFormat format_of(const std::string& path) {
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

std::unique_ptr<RecordReader> open_reader(const InputSpec& spec) {
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
      JsonlOptions jsonl;
      jsonl.field = spec.field;
      jsonl.pair_field = spec.pair_field;
      return std::make_unique<JsonlReader>(spec.paths, jsonl, spec.options);
    }
    default:
      return std::make_unique<LineReader>(spec.paths, spec.options, spec.pairs);
  }
}

}  // namespace bertkit::records
