#pragma once
// CSV output with RFC 4180 quoting, applied only where a field needs it; TSV output never quotes: tab,
// newline, carriage return and backslash are written \t, \n, \r and \\, so every line is one row and
// `cut -f` gives a field's text (a JSON cell is JSON). For CSV/TSV input, each
// row starts with the input record's columns, echoed byte for byte when the delimiters match, and the
// result columns follow. For JSONL input, the first record's member names are the input columns and
// each record's members fill the columns of their names: a string is its text, any other value its
// JSON text as written; a member the record lacks is an empty cell, a member the first record lacks is
// bad input (it would have no column):
//
//   TableWriter table(out, ',', reader->table());
//   table.header({"label", "score"});
//   table.begin_row(record).cell(label).cell(score).end_row();
#include "records/record.h"
#include "records/record_reader.h"
#include "records/record_writer.h"

#include <concepts>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace bertkit::records {

// Appends `s` as a TSV cell holds it: tab, newline, carriage return and backslash written \t, \n, \r
// and \\, so it stays one line (and one column). Also for the outputs that write a line per text.
void append_tsv_escaped(std::string& out, std::string_view s);

class TableWriter {
 public:
  // `input`: the layout of a table input whose columns are echoed; nullptr for other inputs.
  TableWriter(RecordWriter& out, char delimiter, const TableLayout* input = nullptr);

  // The header row: the input's columns, then `columns`.
  void header(const std::vector<std::string>& columns);

  TableWriter& begin_row(const Record& record);
  // The row of a record that failed (--on-error skip): its fields where they match the header (a CSV
  // row's never as raw bytes, which may be what was malformed), else empty cells; a JSONL record's members that
  // have no column are left out (its error names its line).
  TableWriter& begin_failed_row(const Record& record);
  TableWriter& cell(std::string_view s);
  TableWriter& cell(const std::string& s) { return cell(std::string_view(s)); }
  TableWriter& cell(const char* s) { return cell(std::string_view(s)); }
  TableWriter& cell(float x);
  TableWriter& cell(double x);
  template <std::integral T>
  TableWriter& cell(T x) {
    return cell(std::string_view(std::to_string(x)));
  }
  TableWriter& cell(bool b) { return cell(std::string_view(b ? "true" : "false")); }
  // Writes the row as one record.
  void end_row();

 private:
  void separate();
  void append_field(std::string_view s);
  // JSONL input. `lenient`: a member with no column is left out (else it is bad input).
  void append_members(const Record& record, bool lenient = false);

  std::vector<const nlohmann::ordered_json*> member_values_;  // append_members' column -> value
  std::vector<const JsonMember*> member_texts_;

  RecordWriter& out_;
  char delimiter_;
  const TableLayout* input_;
  std::string row_;
  std::size_t cells_ = 0;  // fields in row_ so far
};

}  // namespace bertkit::records
