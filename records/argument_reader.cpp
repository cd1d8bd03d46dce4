#include "records/argument_reader.h"

#include "core/error.h"
#include "tokenizer/utf8.h"

namespace bertkit::records {

ArgumentReader::ArgumentReader(std::vector<std::string> texts, bool pairs, bool strict_utf8)
    : texts_(std::move(texts)), pairs_(pairs), strict_(strict_utf8) {
  for (const auto& t : texts_) total_ += t.size();
}

bool ArgumentReader::next(Record& record) {
  if (next_ >= texts_.size()) return false;
  const std::string& arg = texts_[next_++];
  read_ += arg.size();
  record = Record{};
  record.source = "<argument>";
  record.line = next_;
  std::string text;
  if (tok::valid_utf8_prefix(arg) != arg.size()) {
    if (strict_) bad_input("{}: invalid UTF-8", record.where());
    tok::repair_utf8(arg, text);
    record.repaired = true;
    utf8_.add(record);
  } else {
    text = arg;
  }
  if (pairs_) {
    std::size_t tab = text.find('\t');
    if (tab == std::string::npos) bad_input("{}: expected text<TAB>text_pair", record.where());
    record.text_pair = text.substr(tab + 1);
    record.has_pair = true;
    text.resize(tab);
  }
  record.text = std::move(text);
  return true;
}

}  // namespace bertkit::records
