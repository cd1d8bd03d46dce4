#include "commands/bench_model.h"

#include "core/checkpoint/safetensors_writer.h"
#include "core/error.h"
#include "core/bench/model_shapes.h"
#include "core/model/family_spec.h"
#include "core/model/name_map.h"
#include "core/files.h"
#include "tokenizer/default_vocab.h"

#include <string_view>
#include <system_error>

namespace bertkit::cmd {

namespace {

void write_text(const std::filesystem::path& path, std::string_view text) {
  core::AtomicFile out(path);
  out.write(std::as_bytes(std::span(text)));
  out.commit();
}

}  // namespace

core::Weights random_model_weights(const core::ModelShape& shape) {
  return core::random_weights(core::config_of(shape), 1);
}

void save_model_folder(const core::ModelShape& shape, const core::Weights& weights,
                       const std::filesystem::path& folder) {
  std::error_code ec;
  std::filesystem::create_directories(folder, ec);
  if (ec) runtime_error("{}: cannot create the folder: {}", folder.string(), ec.message());
  write_text(folder / "config.json", core::config_json(shape));
  write_text(folder / "vocab.txt", tok::default_vocab_text());
  // Under the names the family's checkpoints use (DeBERTa's key_proj, ModernBERT's layers.N), so that
  // the folder loads as the Hub's do.
  const core::ModelConfig config = core::config_of(shape);
  const core::ArchitectureSpec& architecture = core::architecture_spec(config);
  core::Weights named;
  for (const std::string& name : weights.names())
    named.add(core::checkpoint_spelling(*config.family, architecture, name), *weights.find(name));
  core::write_safetensors(named, folder / "model.safetensors");
}

}  // namespace bertkit::cmd
