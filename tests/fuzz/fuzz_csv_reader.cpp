// CSV/TSV reader on arbitrary bytes. The first byte picks the delimiter and the options, the rest is
// the file. Beyond not crashing: a good record has as many fields as the header, its text is valid
// UTF-8, and writing its fields as CSV/TSV and reading them back gives the same fields (TSV read with
// --tsv-escapes, as bertkit's TSV output is written). Bit 6: CSV with ';' (--delimiter), TSV with
// --tsv-escapes; without it TSV is literal, a backslash being data.
#include "records/csv_reader.h"
#include "records/table_writer.h"
#include "core/error.h"
#include "fuzz_check.h"
#include "memory_file.h"
#include "reader_knobs.h"
#include "tokenizer/utf8.h"

#include <vector>

using namespace bertkit::records;
using bkfuzz::check;

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  if (size == 0) return 0;
  const bkfuzz::KnobbedFile in(data, size);
  TableOptions table;
  table.delimiter = in.knobs & 1 ? '\t' : in.knobs & 64 ? ';' : ',';
  table.tsv_escapes = (in.knobs & 1) && (in.knobs & 64);
  table.column = in.knobs & 2 ? "a" : "";
  if (in.knobs & 4) table.pair_column = "b";
  const ReaderOptions options = bkfuzz::reader_options(in.knobs, 3, 64);

  std::vector<std::vector<std::string>> good;
  std::vector<std::string> header;
  try {
    CsvReader reader({in.file.path()}, table, options);
    header = reader.table()->header;
    Record record;
    while (reader.next(record)) {
      if (record.bad()) continue;
      check(record.fields.size() == header.size());
      check(bertkit::tok::valid_utf8_prefix(record.text) == record.text.size());
      check(record.line >= 2);
      // TSV has no quoting, so a row that is one empty field is a blank line, which readers skip: it
      // cannot go round through TSV. No bertkit output is such a row, as every command adds columns.
      const bool blank_in_tsv = table.delimiter != '\t' && record.fields.size() == 1 && record.fields[0].empty();
      // Literal TSV: no field holds a tab or a line end, whatever its backslashes.
      if (table.delimiter == '\t' && !table.tsv_escapes)
        for (const std::string& field : record.fields) check(field.find_first_of("\t\n") == std::string::npos);
      if (!blank_in_tsv) good.push_back(record.fields);
    }
  } catch (const bertkit::Error&) {
    return 0;
  }

  // A header that is one empty name is, written as TSV, a blank line: no table (see blank_in_tsv).
  if (table.delimiter != '\t' && header.size() == 1 && header[0].empty()) return 0;

  // Round trip through the writer, with the other delimiter so every field is quoted anew.
  bkfuzz::MemoryFile output(nullptr, 0);
  {
    bertkit::records::RecordWriter out(output.path());
    TableWriter writer(out, table.delimiter != '\t' ? '\t' : ',');
    writer.header(header);
    Record row;
    for (const auto& fields : good) {
      writer.begin_row(row);
      for (const auto& field : fields) writer.cell(field);
      writer.end_row();
    }
  }
  TableOptions again;
  again.delimiter = table.delimiter != '\t' ? '\t' : ',';
  again.tsv_escapes = true;  // what TableWriter escapes in TSV
  again.column = table.column;  // found in the same header the first time
  again.pair_column = table.pair_column;
  ReaderOptions lenient;
  lenient.max_record_bytes = std::size_t{1} << 30;
  try {
    CsvReader reader({output.path()}, again, lenient);
    check(reader.table()->header == header);
    Record record;
    std::size_t i = 0;
    while (reader.next(record)) {
      check(i < good.size() && record.fields == good[i]);
      ++i;
    }
    check(i == good.size());
  } catch (const bertkit::Error&) {
    check(false);  // what was read once must read again
  }
  return 0;
}
