#pragma once
// Texts given on the command line, read as records ("<argument>", numbered from 1), so commands treat
// them exactly like lines of a file.
#include "records/record_reader.h"

#include <string>
#include <vector>

namespace bertkit::records {

class ArgumentReader : public RecordReader {
 public:
  // With `pairs`, each argument is text<TAB>text_pair. Invalid UTF-8 is repaired (or refused: strict).
  ArgumentReader(std::vector<std::string> texts, bool pairs, bool strict_utf8);
  bool next(Record& record) override;
  std::uint64_t bytes_read() const override { return read_; }
  std::optional<std::uint64_t> total_bytes() const override { return total_; }
  const Utf8Report& utf8_report() const override { return utf8_; }

 private:
  std::vector<std::string> texts_;
  bool pairs_;
  bool strict_;
  std::size_t next_ = 0;
  std::uint64_t read_ = 0, total_ = 0;
  Utf8Report utf8_;
};

}  // namespace bertkit::records
