#include "core/json.h"

#include "core/error.h"
#include "core/files.h"

#include <algorithm>

namespace bertkit::core {

std::size_t json_nesting_depth(std::string_view text) {
  std::size_t depth = 0, deepest = 0;
  bool in_string = false, escaped = false;
  for (char c : text) {
    if (in_string) {
      if (escaped)
        escaped = false;
      else if (c == '\\')
        escaped = true;
      else if (c == '"')
        in_string = false;
    } else if (c == '"') {
      in_string = true;
    } else if (c == '[' || c == '{') {
      deepest = std::max(deepest, ++depth);
    } else if ((c == ']' || c == '}') && depth > 0) {
      --depth;
    }
  }
  return deepest;
}

nlohmann::json parse_json(std::string_view text, std::string_view source) {
  if (json_nesting_depth(text) > kMaxJsonDepth)
    bad_input("{}: invalid JSON: nested deeper than {} levels", source, kMaxJsonDepth);
  try {
    return nlohmann::json::parse(text);
  } catch (const nlohmann::json::exception& e) {  // also out_of_range: a number too large for a double
    bad_input("{}: invalid JSON: {}", source, e.what());
  }
}

nlohmann::json read_json_file(const std::filesystem::path& path) {
  return parse_json(read_text_file(path), path.string());
}

}  // namespace bertkit::core
