#pragma once
// Plain-text input: one record per line, or with `pairs` one `text<TAB>text_pair` per line.
//
// Lines end at '\n' only; a '\r' before it (CRLF files) is dropped, as is a UTF-8 byte order mark at
// the start of each input. Empty lines are records (the command decides what they mean); NUL bytes
// are kept. Memory stays flat whatever the input size: only the current line is held.
#include "records/reader_base.h"

namespace bertkit::records {

class LineReader : public ReaderBase {
 public:
  // Opens every input now (missing files fail here); no paths = stdin.
  LineReader(std::vector<std::string> paths, const ReaderOptions& options = {}, bool pairs = false);
  bool next(Record& record) override;

 private:
  bool pairs_;
  std::string pair_bytes_;
};

}  // namespace bertkit::records
