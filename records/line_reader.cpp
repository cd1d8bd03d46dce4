#include "records/line_reader.h"

#include "core/setting.h"

#include <fmt/format.h>

namespace bertkit::records {

LineReader::LineReader(std::vector<std::string> paths, const ReaderOptions& options, bool pairs)
    : ReaderBase(std::move(paths), options), pairs_(pairs) {}

bool LineReader::next(Record& record) {
  bool too_long = false;
  if (!next_line(too_long)) return false;
  std::string& line = line_bytes_;
  start_record(record, line_source_, line_number_);
  if (too_long) {
    reject(record, fmt::format("line longer than the limit of {} bytes ({})", options_.max_record_bytes, Setting::MaxLineBytes));
    return true;
  }
  if (!line.empty() && line.back() == '\r') line.pop_back();
  if (pairs_) {
    std::size_t tab = line.find('\t');
    if (tab == std::string::npos) {
      set_text(record, line, record.text);  // the line, echoed with the error (--on-error skip)
      reject(record, "no tab between text and text_pair");
      return true;
    }
    pair_bytes_.assign(line, tab + 1);
    line.resize(tab);
    record.has_pair = true;
    if (!set_text(record, pair_bytes_, record.text_pair)) return true;
  }
  set_text(record, line, record.text);
  return true;
}

}  // namespace bertkit::records
