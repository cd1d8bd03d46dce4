#include "cli/input_flags.h"

#include "cli/named_choice.h"
#include "cli/number_flags.h"
#include "core/error.h"

namespace bertkit::cli {

namespace {

records::InputFormat parse_input_format(const std::string& name) {
  using F = records::InputFormat;
  return pick_choice<F>("--input-format", name,
                        {{"auto", F::Auto}, {"lines", F::Lines}, {"csv", F::Csv}, {"tsv", F::Tsv}, {"jsonl", F::Jsonl}});
}

// --delimiter: one ASCII character that can separate CSV fields (a quote or a line end cannot; a tab
// is TSV, which is read by other rules).
char csv_delimiter(const std::string& flag) {
  if (flag.empty()) return ',';
  if (flag == "\\t" || flag == "\t") usage_error("--delimiter '{}': tab-separated input is TSV: give --tsv instead", flag);
  if (flag.size() != 1 || static_cast<unsigned char>(flag[0]) >= 0x80)
    usage_error("--delimiter must be one ASCII character, not '{}'", flag);
  const char c = flag[0];
  if (c == '"' || c == '\n' || c == '\r')
    usage_error("--delimiter cannot be a quote or a line end: CSV quotes fields with '\"' and ends records with a line end");
  return c;
}

}  // namespace

void add_input_flags(CLI::App& sub, InputFlags& f, const InputFlagSet& which) {
  if (which.texts_help) sub.add_option("texts", f.texts, which.texts_help);
  CLI::Option* input =
      sub.add_option("-i,--input", f.inputs, "Input file (repeatable; - = stdin, the default when no text is given)");
  if (which.one_file_per_input) input->allow_extra_args(false);
  if (which.pairs) f.pairs_flag = sub.add_flag("--pairs", f.pairs, "Each line (or argument) is text<TAB>text_pair (plain lines and arguments only)");
  sub.add_flag("--csv", f.csv, "Input is CSV with a header row (default for .csv files)");
  sub.add_flag("--tsv", f.tsv, "Input is TSV with a header row (default for .tsv files)");
  sub.add_flag("--jsonl", f.jsonl, "Input is JSON lines (default for .jsonl and .ndjson files)");
  if (which.input_format_alias)
    sub.add_option("--input-format", f.input_format,
                   "lines, csv, tsv, jsonl or auto (from the file name): another spelling of --csv, --tsv, --jsonl")
        ->capture_default_str();
  f.column_flag = sub.add_option("--column", f.column, "CSV/TSV column holding the text (default: the only column)");
  if (which.pairs) f.pair_column_flag = sub.add_option("--pair-column", f.pair_column, "CSV/TSV column holding the second text");
  f.field_flag = sub.add_option("--field", f.field, "JSONL field holding the text (a path: doc.title; a dot in a name is \\.)")
                     ->capture_default_str();
  if (which.pairs) f.pair_field_flag = sub.add_option("--pair-field", f.pair_field, "JSONL field holding the second text (a path, as --field)");
  f.delimiter_flag = sub.add_option("--delimiter", f.delimiter, "CSV input: the field delimiter, e.g. ';' (default ','); CSV output keeps it");
  f.tsv_escapes_flag = sub.add_flag("--tsv-escapes", f.tsv_escapes,
                                    "TSV input: read \\t, \\n, \\r and \\\\ as tab, newline, CR and backslash, as bertkit's TSV output "
                                    "writes them (default: fields are read literally)");
  sub.add_flag("--strict", f.strict_utf8, "Refuse invalid UTF-8 instead of replacing it");
  // Offsets into a text are 32-bit, hence the ceiling.
  sub.add_option("--max-line-bytes", f.max_line_bytes, "Longest input line (or CSV record) read; a longer one is bad input")
      ->check(whole_number(1, (std::int64_t{1} << 32) - 1))
      ->capture_default_str();
  f.batch_wait_flag = sub.add_option("--batch-wait", f.batch_wait_ms,
                                     "Milliseconds a batch read from a pipe or terminal waits for more records after its "
                                     "first before it is computed (0: only those already there)")
                          ->check(whole_number(0, 3600 * 1000))
                          ->capture_default_str();
}

records::InputSpec input_spec(const InputFlags& f, records::OnBadRecord on_bad_record) {
  records::InputSpec spec;
  spec.texts = f.texts;
  spec.paths = f.inputs;
  spec.format = f.csv ? records::InputFormat::Csv
                : f.tsv ? records::InputFormat::Tsv
                : f.jsonl ? records::InputFormat::Jsonl
                          : parse_input_format(f.input_format);
  spec.pairs = f.pairs;
  spec.column = f.column;
  spec.pair_column = f.pair_column;
  spec.field = f.field;
  spec.pair_field = f.pair_field;
  spec.csv_delimiter = csv_delimiter(f.delimiter);
  spec.tsv_escapes = f.tsv_escapes;
  const auto given = [](const CLI::Option* flag) { return flag && flag->count() > 0; };
  spec.given = {.pairs = given(f.pairs_flag), .column = given(f.column_flag), .pair_column = given(f.pair_column_flag),
                .field = given(f.field_flag), .pair_field = given(f.pair_field_flag),
                .delimiter = given(f.delimiter_flag), .tsv_escapes = given(f.tsv_escapes_flag)};
  spec.options.strict_utf8 = f.strict_utf8;
  spec.options.max_record_bytes = f.max_line_bytes;
  spec.options.on_bad_record = on_bad_record;
  spec.options.stop_at_long_line = on_bad_record == records::OnBadRecord::Fail;
  return spec;
}

void check_input_format(const InputFlags& f) {
  if (int(f.csv) + int(f.tsv) + int(f.jsonl) > 1) usage_error("give at most one of --csv, --tsv and --jsonl");
  if (f.input_format != "auto" && (f.csv || f.tsv || f.jsonl))
    usage_error("--input-format is another spelling of --csv, --tsv and --jsonl: give one of them");
}

int batch_wait_ms(const InputFlags& f) {
  if (!f.texts.empty() && f.batch_wait_flag && f.batch_wait_flag->count() > 0)
    usage_error("--batch-wait is for records read from a pipe or terminal: text arguments are all there at once");
  return f.batch_wait_ms;
}

}  // namespace bertkit::cli
