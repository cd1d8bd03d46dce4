#pragma once
// `bertkit convert`: a model (folder, cached id or converted file) to one bertkit file, and the check of
// such a file.
#include "core/checkpoint/converted_file.h"

#include <filesystem>
#include <string>
#include <vector>

namespace bertkit::cmd {

struct ConvertSummary {
  std::size_t tensors = 0;
  std::uint64_t bytes = 0;
  std::vector<std::string> unused_tensors;  // checkpoint tensors the model does not use
};

ConvertSummary convert_model(const std::string& source, const std::filesystem::path& destination, core::StoreType type);

}  // namespace bertkit::cmd
