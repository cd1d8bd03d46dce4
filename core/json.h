#pragma once
// JSON parsing whose errors name the file (nlohmann's own messages do not).
#include <nlohmann/json.hpp>

#include <cstddef>
#include <filesystem>
#include <string_view>

namespace bertkit::core {

// Deepest nesting of arrays and objects in JSON text, counted outside strings without parsing it.
std::size_t json_nesting_depth(std::string_view text);

// Files nest a few levels (tokenizer.json, config.json: 4); nlohmann's copy, dump and comparison
// recurse, so text nested deeper than this is refused before it is parsed.
inline constexpr std::size_t kMaxJsonDepth = 64;

nlohmann::json parse_json(std::string_view text, std::string_view source);
nlohmann::json read_json_file(const std::filesystem::path& path);

}  // namespace bertkit::core
