#pragma once
// A JSONL member named by a flag (--field, --pair-field, --documents-field): member names joined by
// dots, each a member of the object the one before names (`--field doc.title` is {"doc": {"title":
// ...}}). A dot that belongs to a name is written `\.`, a backslash `\\` (`--field 'v1\.2'` is the
// member "v1.2"); a name with no dot is the member itself, as before paths existed.
#include <nlohmann/json.hpp>

#include "core/setting.h"

#include <string>
#include <string_view>
#include <vector>

namespace bertkit::records {

class FieldPath {
 public:
  FieldPath() = default;
  // A usage error naming `setting` when `path` is empty, has an empty name (`a..b`, `.a`) or a backslash
  // before anything but a dot or a backslash.
  FieldPath(Setting setting, std::string path);

  bool empty() const { return names_.empty(); }
  const std::string& text() const { return text_; }  // as given, for messages

  // The value the path names in `object`, or nullptr; `why` then says where the path stops, e.g.
  // `no field "doc.title": "doc" has no member "title" (its members: body, id)`.
  const nlohmann::ordered_json* find(const nlohmann::ordered_json& object, std::string* why = nullptr) const;

 private:
  Setting setting_ = Setting::Field;
  std::string text_;
  std::vector<std::string> names_;
};

}  // namespace bertkit::records
