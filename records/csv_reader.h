#pragma once
// CSV and TSV input with a header row: the text comes from a named column (and the pair text from a
// second one), and each record keeps all its fields and raw bytes for the writers to echo.
//
// Constructing the reader opens every input and reads its header, so a missing column (the error
// lists the available ones) or inputs with different headers fail before any output file exists.
// Blank lines are skipped; a row whose field count differs from the header's is a bad record.
#include "records/csv_parser.h"
#include "records/reader_base.h"

#include <optional>
#include <string>
#include <vector>

namespace bertkit::records {

struct TableOptions {
  char delimiter = ',';
  bool tsv_escapes = false;  // TSV: read bertkit's escapes (records/csv_parser.h); else fields are literal
  // The column the text comes from. Empty: the only column of a one-column table.
  std::string column;
  // The column of the pair text; empty for none.
  std::string pair_column;
};

class CsvReader : public ReaderBase {
 public:
  CsvReader(std::vector<std::string> paths, const TableOptions& table, const ReaderOptions& options = {});
  bool next(Record& record) override;

  const TableLayout* table() const override { return &layout_; }
  std::size_t text_index() const { return text_index_; }
  std::optional<std::size_t> pair_index() const { return pair_index_; }

 private:
  // Reads input i's header; the first one defines the columns, later ones must match it.
  void read_header(std::size_t i);
  std::size_t find_column(const std::string& name, const std::string& input) const;

  TableOptions table_;
  CsvParser parser_;
  TableLayout layout_;
  std::size_t text_index_ = 0;
  std::optional<std::size_t> pair_index_;

  std::size_t current_ = 0;
  std::vector<bool> header_read_;      // input i is open past its header
  std::vector<std::uint64_t> lines_;   // lines consumed in input i
  std::string scratch_;
  std::vector<std::string> header_scratch_;
  std::string raw_scratch_;
};

}  // namespace bertkit::records
