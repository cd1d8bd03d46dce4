#pragma once
// What every record reader (lines, pairs, CSV/TSV, JSONL) offers a command: records in input order
// across all inputs, and how far it got for the progress bar.
#include "records/record.h"

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace bertkit::records {

// The shape of CSV/TSV input, for the writers that echo its columns; for JSONL input written as CSV
// or TSV, the columns the members become.
struct TableLayout {
  char delimiter = ',';
  std::vector<std::string> header;  // column names
  std::string raw_header;           // the header row's bytes as in the first input, without line end
  // JSONL input: the columns are the names of the first record's members, and each record's members
  // go to the columns of their names (Record::members), not its fields.
  bool jsonl = false;
};

class RecordReader {
 public:
  virtual ~RecordReader() = default;
  // Fills `record` with the next record; false after the last one. A bad record throws a BadInput
  // error naming file and line, or comes back with record.error set (OnBadRecord::Flag).
  virtual bool next(Record& record) = 0;
  // Bytes consumed over all inputs, and their total when every input is a regular file.
  virtual std::uint64_t bytes_read() const = 0;
  virtual std::optional<std::uint64_t> total_bytes() const = 0;
  // Whether the next record has not begun to arrive within `timeout_ms` on a pipe or terminal (the
  // pipeline then computes the records it has); never for files and arguments, which are all there.
  virtual bool stalls(int /*timeout_ms*/) const { return false; }
  // Records whose invalid UTF-8 was repaired so far.
  virtual const Utf8Report& utf8_report() const = 0;
  // The input's columns when it is a table (CSV/TSV) or JSONL, nullptr otherwise.
  virtual const TableLayout* table() const { return nullptr; }
};

}  // namespace bertkit::records
