#pragma once
// The one place a command's input becomes a record reader: texts given as arguments, or -i files (or
// stdin) as lines, pairs, CSV/TSV or JSONL.
#include "records/record_reader.h"

#include <memory>
#include <string>
#include <vector>

namespace bertkit::records {

enum class InputFormat {
  Auto,   // from the extensions (after a .gz): .csv, .tsv, .jsonl/.ndjson; anything else (and stdin) is lines
  Lines,  // one text per line, or text<TAB>text_pair with `pairs`
  Csv,
  Tsv,
  Jsonl,
};

struct InputSpec {
  std::vector<std::string> texts;  // given as arguments: read instead of files
  bool texts_pair = false;         // two texts given as arguments (without `pairs`) are one pair
  std::vector<std::string> paths;  // empty = stdin
  InputFormat format = InputFormat::Auto;
  bool pairs = false;        // lines: text<TAB>text_pair
  std::string column;        // CSV/TSV: the text column (empty: the only one)
  std::string pair_column;   // CSV/TSV: the pair column, if any
  char csv_delimiter = ',';  // CSV: the field delimiter (--delimiter); CSV output keeps it
  bool tsv_escapes = false;  // TSV: read \t \n \r \\ in a field as bertkit's TSV output writes them
  std::string field = "text";  // JSONL: the text field, a path (records/field_path.h)
  std::string pair_field;    // JSONL: the pair field, if any
  // The shape flags the user gave (a command's own defaults above are not): each describes one kind of
  // input, and one given for input of another kind is a usage error naming it, never silently ignored.
  struct Given {
    bool pairs = false, column = false, pair_column = false, field = false, pair_field = false;
    bool delimiter = false, tsv_escapes = false;
  } given;
  ReaderOptions options;
};

// What Auto means for these paths; inputs of different kinds are a usage error.
InputFormat resolve_format(const std::vector<std::string>& paths, InputFormat format);

// The usage errors open_reader() finds without reading a byte (texts and -i together, a shape flag for
// input of another kind), for a --dry-run that opens nothing.
void check_input_flags(const InputSpec& spec);

// Opens every input and checks its structure (headers, named column or field): call it before
// creating the output.
std::unique_ptr<RecordReader> open_reader(const InputSpec& spec);

}  // namespace bertkit::records
