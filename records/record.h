#pragma once
// One input record as every reader delivers it: the text(s) the model sees, where it came from, and
// what the writers need to echo the input back (CSV fields, the JSONL object).
#include <nlohmann/json.hpp>

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

namespace bertkit::records {

// Largest record a reader keeps (--max-line-bytes): beyond it a record is refused with its file and line
// instead of exhausting memory. Tokenizing a line takes a few times its size, so a few GB at most.
inline constexpr std::size_t kDefaultMaxRecordBytes = std::size_t{256} << 20;

enum class OnBadRecord {
  Fail,  // throw a BadInput error "FILE:LINE: what is wrong"
  Flag,  // return the record with `error` set, so the caller can report it and go on (--on-error skip)
};

struct ReaderOptions {
  std::size_t max_record_bytes = kDefaultMaxRecordBytes;
  // false: invalid UTF-8 is replaced by U+FFFD as Python's errors="replace" does (and counted);
  // true: a record with invalid UTF-8 is bad ("FILE:LINE: invalid UTF-8").
  bool strict_utf8 = false;
  OnBadRecord on_bad_record = OnBadRecord::Fail;
  // A line past max_record_bytes ends the reading there, for a run that stops at its first bad record:
  // a line with no end (/dev/zero) would otherwise be read for ever. Read on, the rest of that line
  // comes as the next one.
  bool stop_at_long_line = false;
};

// One member of a JSONL record as written in Record::raw: byte offsets of its name (quotes included)
// and of its value's JSON text.
struct JsonMember {
  std::size_t name_begin = 0, name_end = 0;
  std::size_t value_begin = 0, value_end = 0;
};

struct Record {
  std::string text;       // valid UTF-8
  std::string text_pair;  // valid UTF-8, when has_pair
  bool has_pair = false;
  bool repaired = false;  // invalid UTF-8 in the input was replaced by U+FFFD
  std::string source;     // the input's name: the path as given, "<stdin>" for "-"
  std::uint64_t line = 0; // 1-based line where the record starts
  std::string error;      // why the record is bad (OnBadRecord::Flag only); empty when it is good

  // CSV/TSV input: every field's value (unquoted, bytes exactly as in the file) and the record's raw
  // bytes as in the file without its line end, so a writer can echo the input columns byte for byte.
  // JSONL input: raw is the line (as valid UTF-8), members where each member lies in it.
  std::vector<std::string> fields;
  std::string raw;
  std::vector<JsonMember> members;
  // JSONL input: the parsed object, keys in input order (member i of `members` is its item i).
  nlohmann::ordered_json object;

  bool bad() const { return !error.empty(); }
  // "FILE:LINE", the prefix of every message about this record.
  std::string where() const;
};

// How many records needed a repair, and the first of them: enough for one warning at the end.
struct RepairCount {
  std::uint64_t records = 0;
  std::string first_source;
  std::uint64_t first_line = 0;
  void add(const Record& record);
};

// The records whose invalid UTF-8 was replaced by U+FFFD (the counts of the base), and the JSONL
// records whose lone surrogate escapes ("\ud800", not a character) were read as U+FFFD.
struct Utf8Report : RepairCount {
  RepairCount lone_surrogates;
};

}  // namespace bertkit::records
