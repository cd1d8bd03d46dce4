#include "records/field_path.h"

#include "core/error.h"
#include "core/setting.h"

#include <fmt/format.h>
#include <fmt/ranges.h>

namespace bertkit::records {

namespace {

std::vector<std::string> member_names(const nlohmann::ordered_json& object) {
  std::vector<std::string> names;
  for (const auto& item : object.items()) names.push_back(item.key());
  return names;
}

// "doc.title" for the first `n` names, written back with their escapes.
std::string prefix_text(const std::vector<std::string>& names, std::size_t n) {
  std::string out;
  for (std::size_t i = 0; i < n; ++i) {
    if (i) out += '.';
    for (char c : names[i]) {
      if (c == '.' || c == '\\') out += '\\';
      out += c;
    }
  }
  return out;
}

}  // namespace

FieldPath::FieldPath(Setting setting, std::string path) : setting_(setting), text_(std::move(path)) {
  if (text_.empty()) return;
  names_.emplace_back();
  for (std::size_t i = 0; i < text_.size(); ++i) {
    const char c = text_[i];
    if (c == '.') {
      if (names_.back().empty()) break;
      names_.emplace_back();
    } else if (c == '\\') {
      if (i + 1 == text_.size() || (text_[i + 1] != '.' && text_[i + 1] != '\\'))
        usage_error("{} '{}': a backslash escapes a dot (\\.) or a backslash (\\\\) in a member name", setting_, text_);
      names_.back() += text_[++i];
    } else {
      names_.back() += c;
    }
  }
  for (const std::string& name : names_)
    if (name.empty())
      usage_error("{} '{}' has an empty member name: names are joined by single dots (doc.title); a dot within "
                  "a name is written \\.", setting_, text_);
}

const nlohmann::ordered_json* FieldPath::find(const nlohmann::ordered_json& object, std::string* why) const {
  const nlohmann::ordered_json* at = &object;
  for (std::size_t i = 0; i < names_.size(); ++i) {
    const auto it = at->find(names_[i]);
    if (it != at->end()) {
      at = &*it;
      if (i + 1 == names_.size() || at->is_object()) continue;
      if (why) *why = fmt::format("no field \"{}\": \"{}\" is {}, not an object", text_, prefix_text(names_, i + 1), at->type_name());
      return nullptr;
    }
    if (!why) return nullptr;
    if (i == 0) *why = fmt::format("no field \"{}\" (fields: {})", text_, fmt::join(member_names(*at), ", "));
    else
      *why = fmt::format("no field \"{}\": \"{}\" has no member \"{}\" (its members: {})", text_, prefix_text(names_, i),
                         names_[i], fmt::join(member_names(*at), ", "));
    // A member named like the whole path, dots and all, is the likely meaning.
    if (names_.size() > 1 && object.contains(text_))
      *why += fmt::format("; the member named \"{}\" is written {} '{}'", text_, setting_, prefix_text({text_}, 1));
    return nullptr;
  }
  return at;
}

}  // namespace bertkit::records
