#include "core/json.h"

#include "core/error.h"
#include "core/files.h"

#include <fmt/format.h>

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

std::string invalid_json_message(const nlohmann::json::exception& e, bool at_byte) {
  std::string_view what = e.what();
  if (auto bracket = what.find("] "); what.starts_with("[json.exception.") && bracket != std::string_view::npos)
    what.remove_prefix(bracket + 2);
  const auto* parse = dynamic_cast<const nlohmann::json::parse_error*>(&e);
  constexpr std::string_view kParseError = "parse error";
  if (!parse || !what.starts_with(kParseError)) return fmt::format("invalid JSON: {}", what);
  what.remove_prefix(kParseError.size());
  if (!at_byte) return fmt::format("invalid JSON{}", what);  // " at line 1, column 5: ..."
  const auto colon = what.find(": ");
  return fmt::format("invalid JSON at byte {}: {}", parse->byte,
                     colon == std::string_view::npos ? what : what.substr(colon + 2));
}

nlohmann::json parse_json(std::string_view text, std::string_view source) {
  if (json_nesting_depth(text) > kMaxJsonDepth)
    bad_input("{}: invalid JSON: nested deeper than {} levels", source, kMaxJsonDepth);
  try {
    return nlohmann::json::parse(text);
  } catch (const nlohmann::json::exception& e) {  // also out_of_range: a number too large for a double
    bad_input("{}: {}", source, invalid_json_message(e));
  }
}

nlohmann::json read_json_file(const std::filesystem::path& path) {
  return parse_json(read_text_file(path), path.string());
}

}  // namespace bertkit::core
