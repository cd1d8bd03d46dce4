#include "records/result_writer.h"

#include "core/error.h"

#include <algorithm>

namespace bertkit::records {

ResultFormat parse_result_format(const std::string& name, const std::vector<std::string>& allowed) {
  if (std::find(allowed.begin(), allowed.end(), name) == allowed.end()) {
    std::string list;
    for (std::size_t i = 0; i < allowed.size(); ++i)
      list += (i == 0 ? "" : i + 1 == allowed.size() ? " or " : ", ") + allowed[i];
    usage_error("unknown --format '{}' (expected {})", name, list);
  }
  if (name == "tsv") return ResultFormat::Tsv;
  if (name == "csv") return ResultFormat::Csv;
  if (name == "npy") return ResultFormat::Npy;
  if (name == "f32") return ResultFormat::F32;
  return ResultFormat::Jsonl;
}

void write_texts(JsonLine& j, const Record& record) {
  j.field(kTextField, record.text);
  if (record.has_pair) j.field(kPairField, record.text_pair);
}

ResultWriter::ResultWriter(RecordWriter& out, ResultFormat format, const TableLayout* input, bool pairs,
                           std::vector<std::string> columns, EchoNames names)
    : out_(out), pairs_(pairs), columns_(std::move(columns)), names_(std::move(names)) {
  if (format == ResultFormat::Npy || format == ResultFormat::F32)
    runtime_error("internal error: ResultWriter writes text formats only");
  if (format == ResultFormat::Jsonl) return;
  table_ = std::make_unique<TableWriter>(out_, format == ResultFormat::Csv ? ',' : '\t', input);
  std::vector<std::string> header;
  if (!input) {
    header.emplace_back(kTextField);
    if (pairs_) header.emplace_back(kPairField);
  }
  header.insert(header.end(), columns_.begin(), columns_.end());
  header.emplace_back(kTruncatedField);
  table_->header(header);
}

ResultWriter& ResultWriter::begin(const Record& record, bool truncated) {
  column_ = 0;
  truncated_ = truncated;
  if (table_) {
    table_->begin_row(record);
    if (record.fields.empty()) {  // not a table input: its text(s) are the first columns
      table_->cell(record.text);
      if (pairs_) table_->cell(record.text_pair);
    }
    return *this;
  }
  json_.begin_object();
  if (record.object.is_object()) {
    // Echo the JSONL input, leaving out members the results replace.
    for (const auto& [key, value] : record.object.items()) {
      if (std::find(columns_.begin(), columns_.end(), key) != columns_.end() || key == kTruncatedField) continue;
      json_.key(key).json(value);
    }
  } else if (record.fields.empty()) {
    json_.field(names_.text, record.text);
    if (record.has_pair) json_.field(names_.pair, record.text_pair);
    else if (names_.shared_pair) json_.field(names_.pair, *names_.shared_pair);
  } else {
    write_texts(json_, record);
  }
  return *this;
}

void ResultWriter::next_column(std::string_view name) {
  if (column_ >= columns_.size() || columns_[column_] != name)
    runtime_error("internal error: result field '{}' out of the declared order", name);
  ++column_;
}

std::string_view ResultWriter::without_line_end(std::string_view line) {
  if (!line.empty() && line.back() == '\n') line.remove_suffix(1);
  return line;
}

void ResultWriter::end() {
  if (column_ != columns_.size())
    runtime_error("internal error: a record with {} of its {} result fields", column_, columns_.size());
  if (table_) {
    table_->cell(truncated_);
    table_->end_row();
    return;
  }
  if (truncated_) json_.field(kTruncatedField, true);
  out_.write(json_.end_object().line());
}

}  // namespace bertkit::records
