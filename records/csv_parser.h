#pragma once
// RFC 4180 records, streamed: quoted fields with doubled quotes and embedded delimiters and line ends,
// records ended by '\n' or "\r\n". TSV (a tab delimiter) is one record per line, never quoted, and
// read literally, as cut, awk -F'\t' and pandas read it: a backslash and a quote are data. Only with
// `tsv_escapes` are \t, \n, \r and \\ in a field a tab, a newline, a carriage return and a backslash
// (how bertkit's own TSV output writes them). A record's bytes are kept as read (without its line end) next to
// its field values, so the input can be echoed byte for byte.
#include "records/byte_stream.h"

#include <cstdint>
#include <string>
#include <vector>

namespace bertkit::records {

struct CsvRowInfo {
  std::uint64_t lines = 0;  // '\n' bytes consumed, the line end included
  bool too_long = false;    // the record passed the size limit; what was kept is incomplete
  std::string error;        // the first malformation found, empty when none
};

class CsvParser {
 public:
  CsvParser(char delimiter, std::size_t max_record_bytes, bool tsv_escapes = false)
      : delimiter_(delimiter), limit_(max_record_bytes), tsv_escapes_(tsv_escapes) {}

  // Reads the next record into `raw` and `fields` (both replaced). Returns false when the input is
  // exhausted and no bytes were left. A malformed record is still read to its end (leniently, as
  // Python's csv module would) and described in info.error, so reading can go on after it.
  bool read(ByteStream& in, std::string& raw, std::vector<std::string>& fields, CsvRowInfo& info);

 private:
  bool read_tsv(ByteStream& in, std::string& raw, std::vector<std::string>& fields, CsvRowInfo& info);

  char delimiter_;
  std::size_t limit_;
  bool tsv_escapes_;
};

}  // namespace bertkit::records
