#include "records/table_writer.h"

#include "core/error.h"
#include "records/float_text.h"

#include <fmt/ranges.h>

#include <algorithm>

namespace bertkit::records {

TableWriter::TableWriter(RecordWriter& out, char delimiter, const TableLayout* input)
    : out_(out), delimiter_(delimiter), input_(input) {}

void TableWriter::separate() {
  if (cells_++ > 0) row_ += delimiter_;
}

void TableWriter::append_field(std::string_view s) {
  separate();
  if (delimiter_ == '\t') return append_tsv_escaped(row_, s);
  // A leading byte order mark is quoted too: unquoted at the start of a file, a reader would drop it.
  bool quote = s.find_first_of(std::string_view{"\"\n\r", 3}) != std::string_view::npos ||
               s.find(delimiter_) != std::string_view::npos || s.starts_with("\xEF\xBB\xBF");
  if (!quote) {
    row_.append(s);
    return;
  }
  row_ += '"';
  for (char c : s) {
    if (c == '"') row_ += '"';
    row_ += c;
  }
  row_ += '"';
}

void TableWriter::header(const std::vector<std::string>& columns) {
  row_.clear();
  cells_ = 0;
  if (input_) {
    if (input_->delimiter == delimiter_ && !input_->jsonl) {
      row_ = input_->raw_header;
      cells_ = input_->header.size();
    } else {
      for (const std::string& name : input_->header) append_field(name);
    }
  }
  for (const std::string& name : columns) append_field(name);
  // The header starts the file, where a reader drops one byte order mark: a first column name that
  // begins with U+FEFF keeps it behind a mark of the file's own (TSV never quotes; CSV quotes it).
  constexpr std::string_view kBom = "\xEF\xBB\xBF";
  if (delimiter_ == '\t' && row_.starts_with(kBom)) row_.insert(0, kBom);
  end_row();
}

TableWriter& TableWriter::begin_row(const Record& record) {
  row_.clear();
  cells_ = 0;
  if (input_ && input_->jsonl) {
    append_members(record);
  } else if (input_ && !record.fields.empty()) {
    if (input_->delimiter == delimiter_) {
      row_ = record.raw;
      cells_ = record.fields.size();
    } else {
      for (const std::string& field : record.fields) append_field(field);
    }
  }
  return *this;
}

TableWriter& TableWriter::begin_failed_row(const Record& record) {
  row_.clear();
  cells_ = 0;
  if (!input_) return *this;
  const bool object = record.object.is_object() && record.members.size() == record.object.size();
  if (input_->jsonl && object) {
    append_members(record, true);
  } else if (!input_->jsonl && record.fields.size() == input_->header.size()) {
    if (input_->delimiter == '\t' && delimiter_ == '\t') {  // a TSV line is one row whatever it holds
      row_ = record.raw;
      cells_ = record.fields.size();
    } else {
      for (const std::string& field : record.fields) append_field(field);
    }
  } else {
    for (std::size_t i = 0; i < input_->header.size(); ++i) append_field("");
  }
  return *this;
}

void TableWriter::append_members(const Record& record, bool lenient) {
  const std::vector<std::string>& columns = input_->header;
  member_values_.assign(columns.size(), nullptr);
  member_texts_.assign(columns.size(), nullptr);
  std::size_t i = 0;  // members[i] is the object's item i
  for (const auto& item : record.object.items()) {
    const JsonMember& member = record.members[i++];
    const auto column = std::find(columns.begin(), columns.end(), item.key());
    if (column == columns.end() && lenient) continue;
    if (column == columns.end())
      bad_input("{}: the field \"{}\" has no column: CSV and TSV output have the first record's fields ({}); "
                "write JSONL output to keep every record's own",
                record.where(), item.key(), fmt::join(columns, ", "));
    const auto at = static_cast<std::size_t>(column - columns.begin());
    member_values_[at] = &item.value();
    member_texts_[at] = &member;
  }
  for (std::size_t c = 0; c < columns.size(); ++c) {
    if (!member_values_[c]) append_field("");
    else if (member_values_[c]->is_string()) append_field(member_values_[c]->get_ref<const std::string&>());
    else append_field(std::string_view(record.raw).substr(member_texts_[c]->value_begin,
                                                           member_texts_[c]->value_end - member_texts_[c]->value_begin));
  }
}

void append_tsv_escaped(std::string& out, std::string_view s) {
  if (s.find_first_of(std::string_view{"\t\n\r\\", 4}) == std::string_view::npos) {
    out.append(s);
    return;
  }
  for (char c : s) {
    switch (c) {
      case '\t': out += "\\t"; break;
      case '\n': out += "\\n"; break;
      case '\r': out += "\\r"; break;
      case '\\': out += "\\\\"; break;
      default: out += c;
    }
  }
}

TableWriter& TableWriter::cell(std::string_view s) {
  append_field(s);
  return *this;
}

TableWriter& TableWriter::cell(float x) {
  separate();
  append_float(row_, x);
  return *this;
}

TableWriter& TableWriter::cell(double x) {
  separate();
  append_float(row_, x);
  return *this;
}

void TableWriter::end_row() {
  // A row of one empty field would read back as a blank line, which readers skip.
  if (cells_ == 1 && row_.empty() && delimiter_ != '\t') row_ = "\"\"";
  row_ += '\n';
  out_.write(row_);
}

}  // namespace bertkit::records
