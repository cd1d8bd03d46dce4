#include "commands/bench_model.h"

#include "core/checkpoint/safetensors_writer.h"
#include "core/error.h"
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
  core::write_safetensors(weights, folder / "model.safetensors");
}

}  // namespace bertkit::cmd
