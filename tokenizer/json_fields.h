#pragma once
// A field of a tokenizer file's JSON object, with a default when it is absent or null; BadInput naming
// the file and field when it has the wrong type.
#include "core/error.h"

#include <nlohmann/json.hpp>

#include <string>

namespace bertkit::tok {

template <typename T>
T get_or(const nlohmann::json& obj, const char* key, T fallback, const std::string& where) {
  if (!obj.is_object() || !obj.contains(key) || obj[key].is_null()) return fallback;
  try {
    return obj[key].get<T>();
  } catch (const nlohmann::json::exception&) {
    bad_input("{}: field '{}' has the wrong type", where, key);
  }
}

}  // namespace bertkit::tok
