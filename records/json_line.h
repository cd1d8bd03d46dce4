#pragma once
// Builds one JSONL output record quickly: embeddings are hundreds of floats per record, so values are
// formatted straight into a string instead of through a DOM. Floats are printed as the shortest text
// that reads back as the same f32 ("0.1", not "0.10000000149011612").
//
//   JsonLine j;
//   j.begin_object().field("text", rec.text).field("score", 0.93f);
//   j.key("scores").begin_array().value(0.5f).value(0.25f).end_array();
//   out.write(j.end_object().line());
#include <concepts>
#include <cstdint>
#include <span>
#include <string>
#include <string_view>
#include <type_traits>

namespace bertkit::records {

// Appends `s` as a quoted JSON string: escaped, invalid UTF-8 replaced by U+FFFD.
void append_json_string(std::string& out, std::string_view s);
// The same for text known to be valid UTF-8 (a Record's texts are: the readers repair them), written
// at `out`, which has room for 6 bytes a byte and 2 more (the longest escape, "\u001f", is six);
// returns the end. The text is not checked again: tokenize echoes every line.
char* write_json_string(char* out, std::string_view valid_utf8);

class JsonLine {
 public:
  // `buffer`: memory to build in (its contents are dropped), so a caller building a line per record
  // allocates nothing once its buffers have grown.
  explicit JsonLine(std::string buffer = {}) : out_(std::move(buffer)) { out_.clear(); }

  JsonLine& begin_object();
  JsonLine& end_object();
  JsonLine& begin_array();
  JsonLine& end_array();
  JsonLine& key(std::string_view name);

  // Strings are escaped; invalid UTF-8 is replaced by U+FFFD so the line is always valid JSON.
  JsonLine& value(std::string_view s);
  JsonLine& value(const std::string& s) { return value(std::string_view(s)); }
  JsonLine& value(const char* s) { return value(std::string_view(s)); }
  JsonLine& value(float x);  // NaN and infinities, which JSON lacks, become null
  JsonLine& value(double x);
  template <std::integral T>
    requires(!std::same_as<T, bool>)
  JsonLine& value(T x) {
    separate();
    append_integer(static_cast<std::conditional_t<std::is_signed_v<T>, std::int64_t, std::uint64_t>>(x));
    return *this;
  }
  JsonLine& value(bool b);
  JsonLine& null();
  JsonLine& value(std::span<const float> xs);  // an array of floats
  // JSON text the caller appends itself, e.g. a long array written in bulk: a value, or in an object a
  // whole member ("name":value). Returns the line so far, the separator included.
  std::string& raw() {
    separate();
    return out_;
  }

  template <typename T>
  JsonLine& field(std::string_view name, const T& x) {
    key(name);
    return value(x);
  }

  // The finished record with its line end; the builder starts over on the next begin_*.
  std::string_view line();
  // The same, moved out (no copy of a record that may be hundreds of MB); the builder is then empty.
  std::string take();
  // Room for a record of about `bytes`, so a long one is not copied as its buffer doubles.
  void reserve(std::size_t bytes) { out_.reserve(bytes); }
  void clear();

 private:
  void separate();
  template <typename Float>
  JsonLine& floating(Float x);
  JsonLine& open(char bracket);
  JsonLine& close(char bracket);
  void append_integer(std::int64_t x);
  void append_integer(std::uint64_t x);

  std::string out_;
  bool need_comma_ = false;
  bool finished_ = false;
};

}  // namespace bertkit::records
