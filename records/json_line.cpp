#include "records/json_line.h"

#include "records/float_text.h"
#include "tokenizer/byte_vectors.h"
#include "tokenizer/utf8.h"

#include <fmt/format.h>

#include <cmath>
#include <cstdint>
#include <cstring>
#include <iterator>

namespace bertkit::records {

namespace {

// Whether any of the sixteen bytes is a control character, '"' or '\\'.
bool needs_escape(tok::Bytes16 v) {
  using tok::ByteRange16, tok::in_range;
  return tok::any_lane(in_range(v, ByteRange16(0, 0x1f)) | in_range(v, ByteRange16('"', '"')) |
                       in_range(v, ByteRange16('\\', '\\')));
}

// Calls `emit` with each run of bytes that stays as it is and each escape sequence, in order: one
// loop for both forms a string is written in (appended to a std::string, or written through a pointer).
template <typename Emit>
void escape(std::string_view s, Emit&& emit) {
  static constexpr char kHex[] = "0123456789abcdef";
  std::size_t run = 0;  // start of the bytes not yet copied
  for (std::size_t i = 0; i < s.size(); ++i) {
    // Sixteen bytes at a time while none needs escaping: texts echoed whole are mostly plain.
    while (i + 16 <= s.size() && !needs_escape(tok::load16(s.data() + i))) i += 16;
    // The last bytes as one block ending at the end, overlapping the one before: no byte loop for them.
    if (i + 16 > s.size() && s.size() >= 16 && !needs_escape(tok::load16(s.data() + s.size() - 16))) break;
    if (i == s.size()) break;
    auto c = static_cast<unsigned char>(s[i]);
    if (c >= 0x20 && c != '"' && c != '\\') continue;
    emit(s.substr(run, i - run));
    run = i + 1;
    switch (c) {
      case '"': emit("\\\""); break;
      case '\\': emit("\\\\"); break;
      case '\n': emit("\\n"); break;
      case '\r': emit("\\r"); break;
      case '\t': emit("\\t"); break;
      case '\b': emit("\\b"); break;
      case '\f': emit("\\f"); break;
      default: {
        const char code[] = {'\\', 'u', '0', '0', kHex[c >> 4], kHex[c & 15]};
        emit(std::string_view(code, sizeof code));
      }
    }
  }
  emit(s.substr(run));
}

// Calls `write` with `s` as valid UTF-8: itself, or with invalid bytes replaced by U+FFFD.
template <typename Write>
void as_valid_utf8(std::string_view s, Write&& write) {
  if (tok::valid_utf8_prefix(s) == s.size()) return write(s);
  std::string repaired;
  tok::repair_utf8(s, repaired);
  write(std::string_view(repaired));
}

}  // namespace

void append_json_string(std::string& out, std::string_view s) {
  out += '"';
  as_valid_utf8(s, [&](std::string_view valid) { escape(valid, [&](std::string_view piece) { out += piece; }); });
  out += '"';
}

char* write_json_string(char* out, std::string_view valid_utf8) {
  *out++ = '"';
  escape(valid_utf8, [&](std::string_view piece) {
    std::memcpy(out, piece.data(), piece.size());
    out += piece.size();
  });
  *out++ = '"';
  return out;
}

void JsonLine::separate() {
  if (finished_) clear();
  if (need_comma_) out_ += ',';
  need_comma_ = true;
}

JsonLine& JsonLine::open(char bracket) {
  separate();
  out_ += bracket;
  need_comma_ = false;
  return *this;
}

JsonLine& JsonLine::close(char bracket) {
  out_ += bracket;
  need_comma_ = true;
  return *this;
}

JsonLine& JsonLine::begin_object() { return open('{'); }
JsonLine& JsonLine::end_object() { return close('}'); }
JsonLine& JsonLine::begin_array() { return open('['); }
JsonLine& JsonLine::end_array() { return close(']'); }

JsonLine& JsonLine::key(std::string_view name) {
  value(name);
  out_ += ':';
  need_comma_ = false;
  return *this;
}

JsonLine& JsonLine::value(std::string_view s) {
  separate();
  append_json_string(out_, s);
  return *this;
}

template <typename Float>
JsonLine& JsonLine::floating(Float x) {
  separate();
  if (std::isfinite(x))
    append_float(out_, x);
  else
    out_ += "null";
  return *this;
}

JsonLine& JsonLine::value(float x) { return floating(x); }
JsonLine& JsonLine::value(double x) { return floating(x); }

// fmt::format_int writes the digits into a buffer of its own: no format string parsed per number.
void JsonLine::append_integer(std::int64_t x) {
  const fmt::format_int digits(x);
  out_.append(digits.data(), digits.size());
}
void JsonLine::append_integer(std::uint64_t x) {
  const fmt::format_int digits(x);
  out_.append(digits.data(), digits.size());
}

JsonLine& JsonLine::value(bool b) {
  separate();
  out_ += b ? "true" : "false";
  return *this;
}

JsonLine& JsonLine::null() {
  separate();
  out_ += "null";
  return *this;
}

JsonLine& JsonLine::value(std::span<const float> xs) {
  begin_array();
  for (float x : xs) value(x);
  return end_array();
}

std::string_view JsonLine::line() {
  if (!finished_) {
    out_ += '\n';
    finished_ = true;
  }
  return out_;
}

std::string JsonLine::take() {
  line();
  std::string out = std::move(out_);
  clear();
  return out;
}

void JsonLine::clear() {
  out_.clear();
  need_comma_ = false;
  finished_ = false;
}

}  // namespace bertkit::records
