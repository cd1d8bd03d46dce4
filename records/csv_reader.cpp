#include "records/csv_reader.h"

#include "core/error.h"
#include "core/setting.h"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <algorithm>

namespace bertkit::records {

CsvReader::CsvReader(std::vector<std::string> paths, const TableOptions& table, const ReaderOptions& options)
    : ReaderBase(std::move(paths), options),
      table_(table),
      parser_(table.delimiter, options.max_record_bytes, table.tsv_escapes),
      header_read_(inputs_.count(), false),
      lines_(inputs_.count(), 0) {
  layout_.delimiter = table.delimiter;
  read_header(0);
  header_read_[0] = true;
  std::string first = input_name(inputs_.path(0));
  text_index_ = table_.column.empty() && layout_.header.size() == 1 ? 0 : find_column(table_.column, first);
  if (!table_.pair_column.empty()) pair_index_ = find_column(table_.pair_column, first);
  for (std::size_t i = 1; i < inputs_.count(); ++i) {
    read_header(i);
    inputs_.close(i);  // a file is reopened, and its header checked again, when its turn comes
    header_read_[i] = inputs_.path(i) == "-";
  }
}

void CsvReader::read_header(std::size_t i) {
  ByteStream& in = inputs_.open(i);
  in.skip_bom();
  CsvRowInfo info;
  lines_[i] = 0;
  bool first = layout_.header.empty() && i == 0;
  std::vector<std::string>& names = first ? layout_.header : header_scratch_;
  std::string& raw = first ? layout_.raw_header : raw_scratch_;
  if (!parser_.read(in, raw, names, info)) bad_input("{}: the input is empty, expected a header row", in.name());
  lines_[i] = info.lines;
  if (info.too_long) bad_input("{}:1: the header row is longer than {} bytes ({})", in.name(), options_.max_record_bytes,
                             Setting::MaxLineBytes);
  if (!info.error.empty()) bad_input("{}:1: {} in the header row", in.name(), info.error);
  if (raw.empty()) bad_input("{}:1: the header row is empty", in.name());
  if (!first && names != layout_.header)
    bad_input("{}: the header ({}) differs from the header of {} ({})", in.name(), fmt::join(names, ", "),
              input_name(inputs_.path(0)), fmt::join(layout_.header, ", "));
}

std::size_t CsvReader::find_column(const std::string& name, const std::string& input) const {
  if (name.empty())
    usage_error("{} has {} columns ({}): choose the text column with {}", input, layout_.header.size(),
                fmt::join(layout_.header, ", "), Setting::Column);
  auto count = std::count(layout_.header.begin(), layout_.header.end(), name);
  if (count == 0) bad_input("{}: no column \"{}\" (columns: {})", input, name, fmt::join(layout_.header, ", "));
  if (count > 1) bad_input("{}: the header names column \"{}\" {} times", input, name, count);
  return static_cast<std::size_t>(std::find(layout_.header.begin(), layout_.header.end(), name) - layout_.header.begin());
}

bool CsvReader::next(Record& record) {
  for (;;) {
    if (current_ >= inputs_.count()) return false;
    if (!header_read_[current_]) {
      read_header(current_);
      header_read_[current_] = true;
    }
    ByteStream& in = inputs_.open(current_);
    start_record(record, in.name(), lines_[current_] + 1);
    CsvRowInfo info;
    if (!parser_.read(in, record.raw, record.fields, info)) {
      inputs_.close(current_++);
      continue;
    }
    lines_[current_] += info.lines;
    if (record.raw.empty() && !info.too_long) continue;  // a blank line
    if (info.too_long) {
      reject(record, fmt::format("record longer than the limit of {} bytes ({})", options_.max_record_bytes, Setting::MaxLineBytes));
    } else if (!info.error.empty()) {
      reject(record, info.error);
    } else if (record.fields.size() != layout_.header.size()) {
      reject(record, fmt::format("{} field{}, the header has {}", record.fields.size(),
                                 record.fields.size() == 1 ? "" : "s", layout_.header.size()));
    } else {
      scratch_ = record.fields[text_index_];
      if (!set_text(record, scratch_, record.text)) return true;
      if (pair_index_) {
        record.has_pair = true;
        scratch_ = record.fields[*pair_index_];
        set_text(record, scratch_, record.text_pair);
      }
    }
    return true;
  }
}

}  // namespace bertkit::records
