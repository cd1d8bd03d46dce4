#pragma once
// What the record readers share: the input sequence, UTF-8 repair and the bad-record policy.
#include "records/input_sequence.h"
#include "records/record_reader.h"

#include <string>
#include <vector>

namespace bertkit::records {

class ReaderBase : public RecordReader {
 public:
  std::uint64_t bytes_read() const override { return inputs_.bytes_read(); }
  std::optional<std::uint64_t> total_bytes() const override { return inputs_.total_bytes(); }
  const Utf8Report& utf8_report() const override { return utf8_; }
  bool stalls(int timeout_ms) const override { return inputs_.stalls(timeout_ms); }

 protected:
  ReaderBase(std::vector<std::string> paths, const ReaderOptions& options)
      : inputs_(std::move(paths)), options_(options) {}

  // Clears what a previous record left and sets where this one comes from.
  static void start_record(Record& record, const std::string& source, std::uint64_t line);
  // Stores `bytes` into `out` as valid UTF-8 (taking the bytes over when they are already valid).
  // Invalid UTF-8 is repaired and counted, or, with strict_utf8, makes the record bad: then it
  // returns false.
  bool set_text(Record& record, std::string& bytes, std::string& out);
  // Makes the record bad: throws "FILE:LINE: message" (OnBadRecord::Fail) or sets record.error.
  void reject(Record& record, const std::string& message) const;

  // The next line of the inputs, file after file (each file's BOM skipped), into line_bytes_, with
  // its file and 1-based line number in line_source_ and line_number_; false after the last one.
  // `too_long`: the line exceeded options_.max_record_bytes and was cut.
  bool next_line(bool& too_long);

  InputSequence inputs_;
  ReaderOptions options_;
  Utf8Report utf8_;
  std::string line_bytes_;
  std::string line_source_;
  std::uint64_t line_number_ = 0;

 private:
  std::size_t current_ = 0;  // index of the input being read
  bool started_ = false;     // the current input's BOM was checked
};

}  // namespace bertkit::records
