#include "records/jsonl_reader.h"

#include "core/error.h"
#include "core/json.h"
#include "records/json_members.h"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <set>
#include <utility>

namespace bertkit::records {

namespace {

bool blank(std::string_view line) { return line.find_first_not_of(" \t\r") == std::string_view::npos; }

// A name two members of the object share (there is one when it has fewer items than members).
std::string duplicate_name(const Record& record) {
  std::set<std::string> seen;
  for (const JsonMember& m : record.members) {
    const std::string_view text = std::string_view(record.raw).substr(m.name_begin, m.name_end - m.name_begin);
    auto name = nlohmann::json::parse(text).get<std::string>();
    if (!seen.insert(name).second) return name;
  }
  return {};
}

}  // namespace

JsonlReader::JsonlReader(std::vector<std::string> paths, const JsonlOptions& jsonl, const ReaderOptions& options)
    : ReaderBase(std::move(paths), options), jsonl_(jsonl) {
  if (jsonl_.field.empty()) usage_error("the JSON field holding the text is not named (--field)");
  has_pending_ = read(pending_);
  layout_.jsonl = true;
  if (has_pending_ && pending_.object.is_object())
    for (const auto& item : pending_.object.items()) layout_.header.push_back(item.key());
  // A field the first record lacks is a typo, not a bad record: refuse it before any output exists.
  if (has_pending_ && pending_.object.is_object())
    for (const std::string* name : {&jsonl_.field, &jsonl_.pair_field})
      if (!name->empty() && !pending_.object.contains(*name)) throw Error(ErrorKind::BadInput, pending_.error);
}

bool JsonlReader::next(Record& record) {
  if (has_pending_) {
    has_pending_ = false;
    record = std::move(pending_);
    return true;
  }
  return read(record);
}

bool JsonlReader::read(Record& record) {
  for (;;) {
    bool too_long = false;
    if (!next_line(too_long)) return false;
    if (!too_long && blank(line_bytes_)) continue;
    start_record(record, line_source_, line_number_);
    if (too_long) {
      reject(record, fmt::format("line longer than the limit of {} bytes (--max-line-bytes)", options_.max_record_bytes));
      return true;
    }
    if (!set_text(record, line_bytes_, record.raw)) return true;
    // nlohmann's lexer takes a NUL byte outside a string for the end of its input and would ignore
    // the rest of the line; JSON has no place for a raw NUL (inside a string it must be escaped).
    if (auto nul = record.raw.find('\0'); nul != std::string::npos) {
      reject(record, fmt::format("invalid JSON at byte {}: a NUL byte (a control character is written \\u0000)", nul + 1));
      return true;
    }
    if (core::json_nesting_depth(record.raw) > jsonl_.max_depth) {
      reject(record, fmt::format("JSON nested deeper than {} levels", jsonl_.max_depth));
      return true;
    }
    try {
      record.object = nlohmann::ordered_json::parse(record.raw);
    } catch (const nlohmann::ordered_json::exception& e) {
      reject(record, core::invalid_json_message(e, true));  // the line is named, the byte worth keeping
      return true;
    }
    if (!record.object.is_object()) {
      reject(record, fmt::format("expected a JSON object, found {}", record.object.type_name()));
      return true;
    }
    if (!scan_json_members(record.raw, record.members))
      runtime_error("internal error: {}: the members of a JSON object not found", record.where());
    if (record.members.size() != record.object.size()) {
      reject(record, fmt::format("the name \"{}\" is given twice (each field of a record is named once)",
                                 duplicate_name(record)));
      return true;
    }
    if (!take_field(record, jsonl_.field, record.text)) return true;
    if (!jsonl_.pair_field.empty()) {
      record.has_pair = true;
      take_field(record, jsonl_.pair_field, record.text_pair);
    }
    return true;
  }
}

bool JsonlReader::take_field(Record& record, const std::string& name, std::string& out) {
  auto it = record.object.find(name);
  if (it == record.object.end()) {
    std::vector<std::string> keys;
    for (const auto& item : record.object.items()) keys.push_back(item.key());
    reject(record, fmt::format("no field \"{}\" (fields: {})", name, fmt::join(keys, ", ")));
    return false;
  }
  if (!it->is_string()) {
    reject(record, fmt::format("field \"{}\" is {}, not a string", name, it->type_name()));
    return false;
  }
  out = it->get_ref<const std::string&>();
  return true;
}

}  // namespace bertkit::records
