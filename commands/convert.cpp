#include "commands/convert.h"

#include "core/checkpoint/model_source.h"
#include "core/model/encoder.h"
#include "tokenizer/loader.h"
#include "tokenizer/wordpiece_image.h"

#include <memory>

namespace bertkit::cmd {

ConvertSummary convert_model(const std::string& source, const std::filesystem::path& destination, core::StoreType type) {
  core::LoadedModel model = core::load_model(source);
  model.tokenizer = tok::compact_tokenizer_files(model.tokenizer);
  if (model.tokenizer.vocab_txt) {
    // Building the tokenizer here also refuses a broken vocabulary now rather than at every use.
    const tok::Tokenizer tokenizer(tok::build_tokenizer_spec(model.tokenizer));
    model.tokenizer.wordpiece_image = tok::write_wordpiece_image(tokenizer);
  }
  if (type == core::StoreType::F32) {
    // The encoder's matrices packed for this machine go in the file too: loaded here (or on any machine
    // whose oneDNN wants the same layouts) they are used in place, with nothing to copy or reorder.
    // A reduced source is packed from its widened values, which are what the file will hold.
    auto f32_weights = model.stored_dtype == core::DType::F32
                      ? std::shared_ptr<const core::Weights>(&model.weights, [](auto*) {})
                      : std::make_shared<const core::Weights>(model.weights.widened_to_f32());
    const core::Encoder encoder(model.config, f32_weights);
    encoder.add_packed_to(model.weights);
  }
  core::write_converted_file(model, destination, type);
  ConvertSummary summary;
  summary.tensors = model.weights.names().size();
  summary.bytes = std::filesystem::file_size(destination);
  summary.unused_tensors = std::move(model.unexpected_tensors);
  return summary;
}

}  // namespace bertkit::cmd
