#pragma once
// JSON Lines input: one JSON object per line, the text in a named string field (and the pair text in
// a second one), each named by a path (records/field_path.h: doc.title). Each record keeps its line and the parsed object, and where each member is written
// in the line, so the output can carry the members as written. A name given twice in one object is a
// bad record: which of the values would be the text is not for the reader to guess. A lone surrogate
// escape ("\ud800") is read as U+FFFD and counted, as invalid UTF-8 is (refused with strict_utf8);
// the member is still echoed as written.
//
// Blank lines are skipped. Nesting deeper than max_depth is refused before parsing, so a hostile line
// of a million '[' costs nothing. The first record is read when the reader is made: a --field missing
// from it (the error lists the fields present) fails before any output file exists, and its member
// names are the columns of CSV/TSV output.
#include "records/field_path.h"
#include "records/reader_base.h"
#include "core/json.h"

#include <string>
#include <vector>

namespace bertkit::records {

struct JsonlOptions {
  std::string field = "text";  // a path (records/field_path.h)
  std::string pair_field;  // empty: no pair
  std::size_t max_depth = core::kMaxJsonDepth;
};

class JsonlReader : public ReaderBase {
 public:
  JsonlReader(std::vector<std::string> paths, const JsonlOptions& jsonl, const ReaderOptions& options = {});
  bool next(Record& record) override;
  bool stalls(int timeout_ms) const override { return !has_pending_ && ReaderBase::stalls(timeout_ms); }
  // The first record's member names (none when it is bad).
  const TableLayout* table() const override { return &layout_; }

 private:
  bool read(Record& record);
  // Parses the line into record.object and finds its members; false (record made bad) when it is not
  // one JSON object with each name once.
  bool parse(Record& record);
  // Sets `out` from the string field `path` names in record.object; false (record made bad) otherwise.
  bool take_field(Record& record, const FieldPath& path, std::string& out);

  JsonlOptions jsonl_;
  FieldPath field_, pair_field_;
  std::string parse_text_;  // the line with its lone surrogate escapes replaced, when it has any
  TableLayout layout_;
  Record pending_;  // the first record, read up front
  bool has_pending_ = false;
};

}  // namespace bertkit::records
