#include "records/jsonl_reader.h"

#include "core/error.h"
#include "core/setting.h"
#include "core/json.h"
#include "records/json_members.h"
#include "records/json_surrogates.h"

#include <fmt/format.h>

#include <set>
#include <utility>

namespace bertkit::records {

namespace {

bool blank(std::string_view line) { return line.find_first_not_of(" \t\r") == std::string_view::npos; }

// A name two members of the object share (there is one when it has fewer items than members).
// `json`: the text parsed, whose byte offsets are the line's.
std::string duplicate_name(const Record& record, std::string_view json) {
  std::set<std::string> seen;
  for (const JsonMember& m : record.members) {
    const std::string_view text = json.substr(m.name_begin, m.name_end - m.name_begin);
    auto name = nlohmann::json::parse(text).get<std::string>();
    if (!seen.insert(name).second) return name;
  }
  return {};
}

}  // namespace

JsonlReader::JsonlReader(std::vector<std::string> paths, const JsonlOptions& jsonl, const ReaderOptions& options)
    : ReaderBase(std::move(paths), options), jsonl_(jsonl), field_(Setting::Field, jsonl_.field),
      pair_field_(Setting::PairField, jsonl_.pair_field) {
  if (jsonl_.field.empty()) usage_error("the JSON field holding the text is not named ({})", Setting::Field);
  has_pending_ = read(pending_);
  layout_.jsonl = true;
  if (has_pending_ && pending_.object.is_object())
    for (const auto& item : pending_.object.items()) layout_.header.push_back(item.key());
  // A field the first record lacks is a typo, not a bad record: refuse it before any output exists.
  if (has_pending_ && pending_.object.is_object())
    for (const FieldPath* path : {&field_, &pair_field_})
      if (!path->empty() && !path->find(pending_.object)) throw Error(ErrorKind::BadInput, pending_.error);
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
      reject(record, fmt::format("line longer than the limit of {} bytes ({})", options_.max_record_bytes, Setting::MaxLineBytes));
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
    if (!parse(record) || !take_field(record, field_, record.text)) return true;
    if (!pair_field_.empty()) {
      record.has_pair = true;
      take_field(record, pair_field_, record.text_pair);
    }
    return true;
  }
}

bool JsonlReader::parse(Record& record) {
  const LoneSurrogates lone = replace_lone_surrogates(record.raw, parse_text_);
  if (lone.count && options_.strict_utf8) {
    reject(record, fmt::format("a lone surrogate escape at byte {} ({}: half of a UTF-16 pair, not a character)",
                               lone.first + 1, std::string_view(record.raw).substr(lone.first, 6)));
    return false;
  }
  if (lone.count) utf8_.lone_surrogates.add(record);
  const std::string& json = lone.count ? parse_text_ : record.raw;
  try {
    record.object = nlohmann::ordered_json::parse(json);
  } catch (const nlohmann::ordered_json::exception& e) {
    reject(record, core::invalid_json_message(e, true));  // the line is named, the byte worth keeping
    return false;
  }
  if (!record.object.is_object()) {
    reject(record, fmt::format("expected a JSON object, found {}", record.object.type_name()));
    return false;
  }
  if (!scan_json_members(json, record.members))
    runtime_error("internal error: {}: the members of a JSON object not found", record.where());
  if (record.members.size() != record.object.size()) {
    reject(record, fmt::format("the name \"{}\" is given twice (each field of a record is named once)",
                               duplicate_name(record, json)));
    return false;
  }
  return true;
}

bool JsonlReader::take_field(Record& record, const FieldPath& path, std::string& out) {
  std::string why;
  const nlohmann::ordered_json* value = path.find(record.object, &why);
  if (!value) {
    reject(record, why);
    return false;
  }
  if (!value->is_string()) {
    reject(record, fmt::format("field \"{}\" is {}, not a string", path.text(), value->type_name()));
    return false;
  }
  out = value->get_ref<const std::string&>();
  return true;
}

}  // namespace bertkit::records
