#include "commands/convert.h"

#include "core/loading/model_source.h"
#include "core/checkpoint/reduce_weights.h"
#include "core/model/encoder.h"
#include "core/ops/cpu_features.h"
#include "tokenizer/loader.h"
#include "tokenizer/wordpiece_image.h"

#include <memory>

namespace bertkit::cmd {

ConvertSummary convert_model(core::LoadedModel model, const std::filesystem::path& destination, core::StoreType type) {
  model.tokenizer = tok::compact_tokenizer_files(model.tokenizer);
  if (model.tokenizer.vocab_txt) {
    // Building the tokenizer here also refuses a broken vocabulary now rather than at every use.
    const tok::Tokenizer tokenizer(tok::build_tokenizer_spec(model.tokenizer));
    if (std::holds_alternative<tok::WordPieceOptions>(tokenizer.spec().model))
      model.tokenizer.wordpiece_image = core::SharedBytes::copy_of(tok::write_wordpiece_image(tokenizer));
  }
  // bf16 and int8 matrices are packed only where oneDNN computes in that type (cpu_features.h):
  // elsewhere the file keeps them plain, and a machine that computes in the type packs them at load.
  const auto& cpu = core::cpu_selection();
  const bool packable = type == core::StoreType::F32 || (type == core::StoreType::BF16 && core::bf16_matmul_supported(cpu)) ||
                        (type == core::StoreType::Int8 && core::int8_matmul_supported(cpu));
  if (packable) {
    // The encoder's matrices packed for this machine go in the file instead of their plain form: loaded
    // here (or on any machine whose oneDNN wants the same layouts) they are used in place, with nothing
    // to copy or reorder. They are packed from the values the file will hold.
    const core::Encoder encoder(model.config, std::make_shared<const core::Weights>(core::with_store_type(model.weights, type)));
    encoder.add_packed_to(model.weights);
  }
  core::write_converted_file(model, destination, type);
  ConvertSummary summary;
  summary.tensors = core::model_tensor_count(model.weights);
  summary.bytes = std::filesystem::file_size(destination);
  summary.unused_tensors = std::move(model.unexpected_tensors);
  return summary;
}

ConvertSummary convert_model(const std::string& source, const std::filesystem::path& destination, core::StoreType type) {
  return convert_model(core::load_model(source), destination, type);
}

}  // namespace bertkit::cmd
