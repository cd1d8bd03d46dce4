#pragma once
// `bertkit convert`: a model (folder, cached id or converted file) to one bertkit file, and the check of
// such a file.
#include "core/loading/converted_file.h"
#include "core/loading/model_source.h"

#include <filesystem>
#include <string>
#include <vector>

namespace bertkit::cmd {

struct ConvertSummary {
  std::size_t tensors = 0;
  std::uint64_t bytes = 0;
  std::vector<std::string> unused_tensors;  // checkpoint tensors the model does not use
};

// `model` as core::load_model gave it (its files are read in place while the destination is written).
ConvertSummary convert_model(core::LoadedModel model, const std::filesystem::path& destination, core::StoreType type);
ConvertSummary convert_model(const std::string& source, const std::filesystem::path& destination, core::StoreType type);

}  // namespace bertkit::cmd
