#pragma once
// `bertkit info`: what was detected in a model and where each part came from.
#include "core/checkpoint/model_source.h"

#include <string>
#include <utility>
#include <vector>

namespace bertkit::cmd {

// (key, value) lines in a fixed order; keys are stable for scripts.
std::vector<std::pair<std::string, std::string>> model_info(const core::LoadedModel& model);

}  // namespace bertkit::cmd
