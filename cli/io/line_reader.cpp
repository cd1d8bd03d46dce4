#include "cli/io/line_reader.h"

#include <fmt/format.h>

namespace bertkit::cli::io {

LineReader::LineReader(std::vector<std::string> paths, const ReaderOptions& options, bool pairs)
    : ReaderBase(std::move(paths), options), pairs_(pairs) {}

bool LineReader::next(Record& record) {
  for (;;) {
    if (current_ >= inputs_.count()) return false;
    ByteStream& in = inputs_.open(current_);
    if (!started_) {
      in.skip_bom();
      started_ = true;
      line_ = 0;
    }
    bool too_long = false;
    if (!in.read_line(bytes_, options_.max_record_bytes, too_long)) {
      inputs_.close(current_++);
      started_ = false;
      continue;
    }
    start_record(record, in.name(), ++line_);
    if (too_long) {
      reject(record, fmt::format("line longer than the limit of {} bytes", options_.max_record_bytes));
      return true;
    }
    if (!bytes_.empty() && bytes_.back() == '\r') bytes_.pop_back();
    if (pairs_) {
      std::size_t tab = bytes_.find('\t');
      if (tab == std::string::npos) {
        reject(record, "no tab between text and text_pair");
        return true;
      }
      pair_bytes_.assign(bytes_, tab + 1);
      bytes_.resize(tab);
      record.has_pair = true;
      if (!set_text(record, pair_bytes_, record.text_pair)) return true;
    }
    set_text(record, bytes_, record.text);
    return true;
  }
}

}  // namespace bertkit::cli::io
