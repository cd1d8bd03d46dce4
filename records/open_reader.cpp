#include "records/open_reader.h"

#include "records/argument_reader.h"
#include "records/csv_reader.h"
#include "records/jsonl_reader.h"
#include "records/line_reader.h"
#include "core/error.h"
#include "core/setting.h"

#include <fmt/format.h>

#include <algorithm>
#include <cctype>
#include <optional>
#include <string_view>

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
      usage_error("{} is {} but {} is {}: name the format ({}, {}, {}) or give inputs of one kind", paths[0],
                  format_name(found), paths[i], format_name(here), Setting::Csv, Setting::Tsv, Setting::Jsonl);
    found = here;
  }
  return found;
}

namespace {

// --delimiter and --tsv-escapes say how a CSV or a TSV file is read: for any other input they mean
// nothing, and are named. `format`: nullopt for texts given as arguments.
void refuse_dialect_flags(const InputSpec& spec, std::optional<InputFormat> format) {
  const auto refuse = [&](Setting flag, const char* applies_to, std::string_view hint) {
    if (!format) usage_error("{} describes -i files, not texts given as arguments", flag);
    usage_error("{} applies to {} input, not {} input ({}){}", flag, applies_to, format_name(*format),
                spec.paths.empty() ? std::string("stdin") : spec.paths[0], hint);
  };
  if (spec.given.delimiter && format != InputFormat::Csv)
    refuse(Setting::Delimiter, "CSV",
           format == InputFormat::Tsv ? fmt::format(": TSV is tab-separated; give {} to read it as CSV", Setting::Csv) : "");
  if (spec.given.tsv_escapes && format != InputFormat::Tsv) refuse(Setting::TsvEscapes, "TSV", "");
}

// A shape flag given for input of another kind would be silently ignored (--pair-field on CSV scores
// the single text): every one is named. `format`: nullopt for texts given as arguments.
void refuse_shape_flags(const InputSpec& spec, std::optional<InputFormat> format) {
  const bool table = format == InputFormat::Csv || format == InputFormat::Tsv;
  const bool lines = !format || format == InputFormat::Lines;
  std::vector<std::string> refused;
  if (!format && spec.format != InputFormat::Auto)
    refused.push_back(fmt::format("{}, {}, {}", Setting::Csv, Setting::Tsv, Setting::Jsonl));
  const auto refuse = [&](bool given, Setting setting) {
    if (given) refused.emplace_back(spelling(setting));
  };
  refuse(!table && spec.given.column, Setting::Column);
  refuse(!table && spec.given.pair_column, Setting::PairColumn);
  refuse(format != InputFormat::Jsonl && spec.given.field, Setting::Field);
  refuse(format != InputFormat::Jsonl && spec.given.pair_field, Setting::PairField);
  refuse(!lines && spec.given.pairs, Setting::Pairs);
  if (refused.empty()) return;
  std::string flags;
  for (std::size_t i = 0; i < refused.size(); ++i)
    flags += fmt::format("{}{}", i == 0 ? "" : i + 1 == refused.size() ? " and " : ", ", refused[i]);
  const bool one = refused.size() == 1 && refused[0].find(',') == std::string::npos;
  if (!format) usage_error("{} describe{} -i files, not texts given as arguments", flags, one ? "s" : "");
  const std::string source = spec.paths.empty() ? std::string("stdin") : spec.paths[0];
  const std::string hint =
      table ? fmt::format("name its columns with {} and {}", Setting::Column, Setting::PairColumn)
      : format == InputFormat::Jsonl
          ? fmt::format("name its fields with {} and {}", Setting::Field, Setting::PairField)
          : fmt::format("{} and {} name CSV/TSV columns, {} and {} JSONL fields: give {}, {} or {} (or name the file "
                        ".csv, .tsv or .jsonl); {} reads text<TAB>text_pair lines",
                        Setting::Column, Setting::PairColumn, Setting::Field, Setting::PairField, Setting::Csv,
                        Setting::Tsv, Setting::Jsonl, Setting::Pairs);
  usage_error("{} do{} not apply to {} input ({}): {}", flags, one ? "es" : "", format_name(*format),
              source, hint);
}

std::unique_ptr<RecordReader> open_arguments(const InputSpec& spec) {
  std::vector<std::string> texts = spec.texts;
  bool pairs = spec.pairs;
  if (spec.texts_pair && !pairs) {
    if (texts.size() != 2) usage_error("give two texts to compare (or {} with text<TAB>text_pair arguments)", Setting::Pairs);
    for (const auto& t : texts)
      if (t.find('\t') != std::string::npos) usage_error("a text argument holds a tab: use {} with text<TAB>text_pair", Setting::Pairs);
    texts = {texts[0] + '\t' + texts[1]};
    pairs = true;
  }
  return std::make_unique<ArgumentReader>(std::move(texts), pairs, spec.options.strict_utf8);
}

}  // namespace

void check_input_flags(const InputSpec& spec) {
  if (spec.texts.empty()) {
    const InputFormat format = resolve_format(spec.paths, spec.format);
    refuse_shape_flags(spec, format);
    return refuse_dialect_flags(spec, format);
  }
  if (!spec.paths.empty()) usage_error("give texts as arguments or files with -i, not both");
  refuse_shape_flags(spec, std::nullopt);
  refuse_dialect_flags(spec, std::nullopt);
}

std::unique_ptr<RecordReader> open_reader(const InputSpec& spec) {
  check_input_flags(spec);
  if (!spec.texts.empty()) return open_arguments(spec);
  InputFormat format = resolve_format(spec.paths, spec.format);
  switch (format) {
    case InputFormat::Csv:
    case InputFormat::Tsv: {
      TableOptions table;
      table.delimiter = format == InputFormat::Csv ? spec.csv_delimiter : '\t';
      table.tsv_escapes = spec.tsv_escapes;
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
