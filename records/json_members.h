#pragma once
// Where each member of a JSON object lies in its text, so that echoing a JSONL record copies what was
// written (a 23-digit integer keeps every digit, 1e2 stays 1e2) instead of printing again what nlohmann
// parsed into doubles. It scans text nlohmann has already accepted as one object: it checks only what
// it needs to find the spans, and on any other text returns false without reading out of bounds.
#include "records/record.h"

#include <string_view>
#include <vector>

namespace bertkit::records {

// Fills `members` with the spans of `object`'s members in order (duplicates included); false when the
// text is not one JSON object.
bool scan_json_members(std::string_view object, std::vector<JsonMember>& members);

}  // namespace bertkit::records
