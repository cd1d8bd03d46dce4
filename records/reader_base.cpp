#include "records/reader_base.h"

#include "core/error.h"
#include "tokenizer/utf8.h"

#include <fmt/format.h>

namespace bertkit::records {

std::string Record::where() const { return fmt::format("{}:{}", source, line); }

void RepairCount::add(const Record& record) {
  if (records++ > 0) return;
  first_source = record.source;
  first_line = record.line;
}

void ReaderBase::start_record(Record& record, const std::string& source, std::uint64_t line) {
  record.text.clear();
  record.text_pair.clear();
  record.has_pair = false;
  record.repaired = false;
  record.source = source;
  record.line = line;
  record.error.clear();
  record.fields.clear();
  record.raw.clear();
  record.members.clear();
  record.object = nullptr;
}

bool ReaderBase::set_text(Record& record, std::string& bytes, std::string& out) {
  std::size_t valid = tok::valid_utf8_prefix(bytes);
  if (valid == bytes.size()) {
    out.swap(bytes);
    return true;
  }
  out.clear();
  tok::repair_utf8(bytes, out);  // a refused record keeps it too: its row echoes it (--on-error skip)
  if (options_.strict_utf8) {
    reject(record, "invalid UTF-8");
    return false;
  }
  if (!record.repaired) {
    record.repaired = true;
    utf8_.add(record);
  }
  return true;
}

void ReaderBase::reject(Record& record, const std::string& message) const {
  std::string full = fmt::format("{}: {}", record.where(), message);
  if (options_.on_bad_record == OnBadRecord::Fail) throw Error(ErrorKind::BadInput, std::move(full));
  record.error = std::move(full);
}

bool ReaderBase::next_line(bool& too_long) {
  for (;;) {
    if (current_ >= inputs_.count()) return false;
    ByteStream& in = inputs_.open(current_);
    if (!started_) {
      in.skip_bom();
      started_ = true;
      line_number_ = 0;
    }
    if (!in.read_line(line_bytes_, options_.max_record_bytes, too_long, options_.stop_at_long_line)) {
      inputs_.close(current_++);
      started_ = false;
      continue;
    }
    ++line_number_;
    if (line_source_ != in.name()) line_source_ = in.name();
    return true;
  }
}

}  // namespace bertkit::records
