#pragma once
// JSON parsing whose errors name the file (nlohmann's own messages do not).
#include <nlohmann/json.hpp>

#include <cstddef>
#include <filesystem>
#include <string>
#include <string_view>

namespace bertkit::core {

// Deepest nesting of arrays and objects in JSON text, counted outside strings without parsing it.
std::size_t json_nesting_depth(std::string_view text);

// Files nest a few levels (tokenizer.json, config.json: 4); nlohmann's copy, dump and comparison
// recurse, so text nested deeper than this is refused before it is parsed.
inline constexpr std::size_t kMaxJsonDepth = 64;

// "invalid JSON at line 1, column 5: syntax error while parsing value - ...": nlohmann's message for `e`
// without its "[json.exception.parse_error.101] parse error" prefix, which means nothing to a user;
// `at_byte` gives the position as "at byte 5" (text that is one line) instead.
std::string invalid_json_message(const nlohmann::json::exception& e, bool at_byte = false);

nlohmann::json parse_json(std::string_view text, std::string_view source);
nlohmann::json read_json_file(const std::filesystem::path& path);

}  // namespace bertkit::core
