#include "core/json.h"

#include "core/error.h"
#include "core/files.h"

namespace bertkit::core {

nlohmann::json parse_json(std::string_view text, std::string_view source) {
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
