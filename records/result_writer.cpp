#include "records/result_writer.h"

#include "core/error.h"
#include "core/setting.h"

#include <algorithm>

namespace bertkit::records {

namespace {

// `where`: "FILE:LINE: " or "".
void refuse_collision(std::span<const std::string> outputs, std::string_view input_field, std::string_view where) {
  if (std::find(outputs.begin(), outputs.end(), input_field) == outputs.end()) return;
  usage_error("{}the input field '{}' is also an output field: rename the outputs with {} PREFIX (e.g. {} pred_) "
              "so the input's is kept",
              where, input_field, Setting::OutputPrefix, Setting::OutputPrefix);
}

[[noreturn]] void refuse_own_pair(const EchoNames& names, std::string_view where, std::string_view kind) {
  usage_error("{}the input has a {} {} of its own, and {} gives every record one: leave out the flag or the {}",
              where, names.pair, kind, names.shared_pair_flags, kind);
}

}  // namespace

void write_input(JsonLine& j, const Record& record, const TableLayout* input, const EchoNames& names) {
  if (record.object.is_object()) {
    for (const JsonMember& m : record.members) {  // as written: numbers keep their digits
      std::string& out = j.raw();
      out.append(record.raw, m.name_begin, m.name_end - m.name_begin);
      out += ':';
      out.append(record.raw, m.value_begin, m.value_end - m.value_begin);
    }
  } else if (record.fields.empty() || !input) {
    j.field(names.text, record.text);
    if (record.has_pair) j.field(names.pair, record.text_pair);
  } else {
    for (std::size_t i = 0; i < record.fields.size() && i < input->header.size(); ++i)
      j.field(input->header[i], record.fields[i]);
  }
  if (!record.has_pair && names.shared_pair) j.field(names.pair, *names.shared_pair);
}

namespace {

// A failed record's input as the first members: as write_input() where its fields were read, else its
// line as read (a JSONL line that is not one object, a CSV row with the wrong number of fields); a line
// too long to keep, none.
void write_failed_input(JsonLine& j, const Record& record, const TableLayout* input, const EchoNames& names) {
  const bool object = record.object.is_object() && record.members.size() == record.object.size();
  const bool row = input && !input->jsonl && record.fields.size() == input->header.size();
  if (object || row || !input) return write_input(j, record, input, names);
  if (!record.raw.empty()) j.field(kLineField, record.raw);
}

}  // namespace

void refuse_collisions(std::span<const std::string> outputs, const TableLayout* input) {
  // A JSONL record's members are checked record by record, naming the line.
  if (input && !input->jsonl)
    for (const std::string& name : input->header) refuse_collision(outputs, name, "");
}

void refuse_collisions(std::span<const std::string> outputs, const Record& record) {
  if (!record.object.is_object()) return;
  for (const auto& member : record.object.items()) refuse_collision(outputs, member.key(), record.where() + ": ");
}

ResultWriter::ResultWriter(RecordWriter& out, ResultFormat format, const TableLayout* input, bool pairs,
                           std::vector<std::string> columns, EchoNames names, const std::string& prefix,
                           bool error_field)
    : out_(out), pairs_(pairs), input_(input), columns_(std::move(columns)), error_field_(error_field),
      names_(std::move(names)) {
  if (format == ResultFormat::Npy || format == ResultFormat::F32)
    runtime_error("internal error: ResultWriter writes text formats only");
  for (const std::string& column : columns_) output_names_.push_back(prefix + column);
  output_names_.push_back(prefix + std::string(kTruncatedField));
  if (error_field_) output_names_.push_back(prefix + std::string(kErrorField));
  refuse_collisions(output_names_, input);
  if (!names_.shared_pair_flags.empty() && input &&
      std::find(input->header.begin(), input->header.end(), names_.pair) != input->header.end())
    refuse_own_pair(names_, "", "column");
  if (format == ResultFormat::Jsonl) return;
  // CSV output keeps a CSV input's delimiter (--delimiter ';'), so its rows echo byte for byte.
  const bool csv_input = input && !input->jsonl && input->delimiter != '\t';
  const char delimiter = format == ResultFormat::Tsv ? '\t' : csv_input ? input->delimiter : ',';
  table_ = std::make_unique<TableWriter>(out_, delimiter, input);
  std::vector<std::string> header;
  if (!input) {
    header.emplace_back(kTextField);
    if (pairs_) header.emplace_back(kPairField);
  }
  header.insert(header.end(), output_names_.begin(), output_names_.end());
  table_->header(header);
}

ResultWriter& ResultWriter::begin(const Record& record, bool truncated) {
  column_ = 0;
  truncated_ = truncated;
  refuse_collisions(output_names_, record);
  if (!names_.shared_pair_flags.empty() && record.object.is_object() && record.object.contains(names_.pair))
    refuse_own_pair(names_, record.where() + ": ", "member");
  if (table_) {
    table_->begin_row(record);
    if (!input_) {  // not a table or JSONL input: its text(s) are the first columns
      table_->cell(record.text);
      if (pairs_) table_->cell(record.text_pair);
    }
    return *this;
  }
  json_.begin_object();
  write_input(json_, record, input_, names_);
  return *this;
}

std::string_view ResultWriter::next_column(std::string_view name) {
  if (column_ >= columns_.size() || columns_[column_] != name)
    runtime_error("internal error: result field '{}' out of the declared order", name);
  return output_names_[column_++];
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
    if (error_field_) table_->cell("");
    table_->end_row();
    return;
  }
  if (truncated_) json_.field(output_names_[columns_.size()], true);
  out_.write(json_.end_object().line());
}

void ResultWriter::failed(const Record& record, std::string_view error) {
  if (!error_field_) runtime_error("internal error: a failed record written by a run that does not skip");
  refuse_collisions(output_names_, record);
  const std::string& error_name = output_names_.back();
  if (table_) {
    table_->begin_failed_row(record);
    if (!input_) {
      table_->cell(record.text);
      if (pairs_) table_->cell(record.text_pair);
    }
    for (std::size_t i = 0; i + 1 < output_names_.size(); ++i) table_->cell("");  // results and truncated
    table_->cell(error);
    table_->end_row();
    return;
  }
  json_.begin_object();
  write_failed_input(json_, record, input_, names_);
  out_.write(json_.field(error_name, error).end_object().line());
}

}  // namespace bertkit::records
