#include "commands/convert.h"

#include "core/checkpoint/model_source.h"

namespace bertkit::cmd {

ConvertSummary convert_model(const std::string& source, const std::filesystem::path& destination, core::StoreType type) {
  core::LoadedModel model = core::load_model(source);
  core::write_converted_file(model, destination, type);
  ConvertSummary summary;
  summary.tensors = model.weights.names().size();
  summary.bytes = std::filesystem::file_size(destination);
  summary.unused_tensors = std::move(model.unexpected_tensors);
  return summary;
}

}  // namespace bertkit::cmd
