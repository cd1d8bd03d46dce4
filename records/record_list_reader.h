#pragma once
// Records already in memory, read in order: the inputs of `bertkit serve`'s requests, which run through
// the same pipeline as a file's records (commands/serve_batcher.h).
#include "records/record_reader.h"

#include <vector>

namespace bertkit::records {

class RecordListReader : public RecordReader {
 public:
  // The records are moved out as they are read.
  explicit RecordListReader(std::vector<Record>& records) : records_(records) {}
  bool next(Record& record) override {
    if (next_ == records_.size()) return false;
    record = std::move(records_[next_++]);
    return true;
  }
  std::uint64_t bytes_read() const override { return 0; }
  // All there, as a file's records are: the pipeline never waits for more.
  std::optional<std::uint64_t> total_bytes() const override { return 0; }
  const Utf8Report& utf8_report() const override { return utf8_; }

 private:
  std::vector<Record>& records_;
  std::size_t next_ = 0;
  Utf8Report utf8_;
};

}  // namespace bertkit::records
