#pragma once
// JSON parsing whose errors name the file (nlohmann's own messages do not).
#include <nlohmann/json.hpp>

#include <filesystem>
#include <string_view>

namespace bertkit::core {

nlohmann::json parse_json(std::string_view text, std::string_view source);
nlohmann::json read_json_file(const std::filesystem::path& path);

}  // namespace bertkit::core
