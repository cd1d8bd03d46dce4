#pragma once
// `bertkit info`: what was detected in a model and where each part came from.
#include "core/loading/model_source.h"
#include "core/loading/static_folder.h"

#include <nlohmann/json.hpp>

#include <string>
#include <vector>

namespace bertkit::cmd {

// One setting: `text` for the "key: value" lines, `value` with its JSON type for --json (numbers,
// booleans, null, lists and objects as such).
struct InfoField {
  std::string key;
  std::string text;
  nlohmann::ordered_json value;
  bool repeats = false;  // one line per item (from.tokenizer: one per file); JSON: always the list
};

// The fields in a fixed order; keys are stable for scripts.
std::vector<InfoField> model_info(const core::LoadedModel& model);
// A static embedding model's: its layout, table, tokenizer and rules.
std::vector<InfoField> static_model_info(const core::StaticModel& model);
nlohmann::ordered_json info_json(const std::vector<InfoField>& fields);

}  // namespace bertkit::cmd
