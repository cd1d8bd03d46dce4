#include "records/csv_parser.h"

#include <algorithm>
#include <cstring>
#include <string_view>

namespace bertkit::records {

namespace {

enum class State { FieldStart, Unquoted, Quoted, QuoteSeen };

// Collects a record's bytes while they fit in the limit; an oversized record is scanned to its end
// but not stored. Each field also costs its std::string, so a row of a million empty fields counts.
class RowSink {
 public:
  RowSink(std::string& raw, std::vector<std::string>& fields, CsvRowInfo& info, std::size_t limit)
      : raw_(raw), fields_(fields), info_(info), limit_(limit) {
    raw_.clear();
    fields_.clear();
    fields_.emplace_back();
  }
  void raw(std::string_view bytes) {
    if (fits(bytes.size())) raw_.append(bytes);
  }
  void value(std::string_view bytes) {
    if (!info_.too_long) fields_.back().append(bytes);
  }
  void both(std::string_view bytes) {
    raw(bytes);
    value(bytes);
  }
  void next_field(char delimiter) {
    raw(std::string_view(&delimiter, 1));
    if (fits(sizeof(std::string))) fields_.emplace_back();
  }
  void error(const char* message) {
    if (info_.error.empty()) info_.error = message;
  }

 private:
  bool fits(std::size_t more) {
    if (!info_.too_long && raw_.size() + fields_.size() * sizeof(std::string) + more > limit_)
      info_.too_long = true;
    return !info_.too_long;
  }
  std::string& raw_;
  std::vector<std::string>& fields_;
  CsvRowInfo& info_;
  std::size_t limit_;
};

}  // namespace

bool CsvParser::read(ByteStream& in, std::string& raw, std::vector<std::string>& fields, CsvRowInfo& info) {
  if (delimiter_ == '\t') return read_tsv(in, raw, fields, info);
  info = CsvRowInfo{};
  RowSink sink(raw, fields, info, limit_);
  State state = State::FieldStart;
  bool any = false;
  bool pending_cr = false;  // a '\r' outside quotes: a line end if '\n' follows, data otherwise
  const char stops[] = {delimiter_, '\n', '\r', '"'};

  for (;;) {
    if (in.data().empty() && !in.refill()) break;
    std::string_view data = in.data();
    any = true;
    std::size_t i = 0;
    while (i < data.size()) {
      char c = data[i];
      if (pending_cr) {
        pending_cr = false;
        if (c == '\n') {
          ++info.lines;
          in.consume(i + 1);
          return true;
        }
        if (state == State::QuoteSeen) sink.error("unexpected character after a closing quote");
        sink.both("\r");
        state = State::Unquoted;
      }
      switch (state) {
        case State::Quoted: {
          // Bulk-copy up to the next quote; line ends inside quotes are data.
          const void* q = std::memchr(data.data() + i, '"', data.size() - i);
          std::size_t end = q ? static_cast<std::size_t>(static_cast<const char*>(q) - data.data()) : data.size();
          std::string_view run = data.substr(i, end - i);
          info.lines += static_cast<std::uint64_t>(std::count(run.begin(), run.end(), '\n'));
          sink.both(run);
          i = end;
          if (q) {
            sink.raw("\"");
            state = State::QuoteSeen;
            ++i;
          }
          continue;
        }
        case State::QuoteSeen:
          if (c == '"') {
            sink.both("\"");  // raw gets the second quote of the pair, value one quote
            state = State::Quoted;
            ++i;
            continue;
          }
          if (c != delimiter_ && c != '\n' && c != '\r') {
            sink.error("unexpected character after a closing quote");
            state = State::Unquoted;
          }
          break;
        case State::FieldStart:
          if (c == '"') {
            sink.raw("\"");
            state = State::Quoted;
            ++i;
            continue;
          }
          break;
        case State::Unquoted:
          break;
      }
      // Outside quotes: a delimiter, a line end, or a run of plain bytes (a stray '"' is data).
      if (c == delimiter_) {
        sink.next_field(delimiter_);
        state = State::FieldStart;
        ++i;
      } else if (c == '\n') {
        ++info.lines;
        in.consume(i + 1);
        return true;
      } else if (c == '\r') {
        pending_cr = true;
        ++i;
      } else {
        std::size_t end = i + 1;
        while (end < data.size() && std::find(std::begin(stops), std::end(stops) - 1, data[end]) == std::end(stops) - 1)
          ++end;
        sink.both(data.substr(i, end - i));
        state = State::Unquoted;
        i = end;
      }
    }
    in.consume(data.size());
  }
  if (state == State::Quoted) sink.error("a quoted field is not closed before the end of the input");
  return any;
}

bool CsvParser::read_tsv(ByteStream& in, std::string& raw, std::vector<std::string>& fields, CsvRowInfo& info) {
  info = CsvRowInfo{};
  fields.clear();
  if (!in.read_line(raw, limit_, info.too_long)) return false;
  info.lines = 1;
  if (!raw.empty() && raw.back() == '\r') raw.pop_back();
  fields.emplace_back();
  for (std::size_t i = 0; i < raw.size(); ++i) {
    const char c = raw[i];
    if (c == '\t') {
      fields.emplace_back();
    } else if (tsv_escapes_ && c == '\\' && i + 1 < raw.size() && std::string_view("tnr\\").find(raw[i + 1]) != std::string_view::npos) {
      const char e = raw[++i];
      fields.back() += e == 't' ? '\t' : e == 'n' ? '\n' : e == 'r' ? '\r' : '\\';
    } else {
      fields.back() += c;
    }
  }
  return true;
}

}  // namespace bertkit::records
