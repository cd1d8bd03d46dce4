// A static embedding model's folder (core/loading/static_folder.h): the input is modules.json, a NUL,
// config.json, a NUL, 0_StaticEmbedding/tokenizer.json's text (its "truncation" is read), a NUL, then
// the bytes of the table's model.safetensors; an empty part is a file left out. The files are written to
// a fresh folder and read as `embed` reads them. Beyond not crashing: a folder that loads has a 2-D table
// of rows x dim f32 values under kStaticTable, and a truncation that is positive.
#include "fuzz_check.h"

#include "core/error.h"
#include "core/loading/static_folder.h"

#include <unistd.h>

#include <array>
#include <filesystem>
#include <fstream>
#include <string>
#include <string_view>

using namespace bertkit::core;
namespace fs = std::filesystem;

namespace {

void write(const fs::path& path, std::string_view bytes) {
  if (bytes.empty()) return;
  fs::create_directories(path.parent_path());
  std::ofstream(path, std::ios::binary).write(bytes.data(), static_cast<std::streamsize>(bytes.size()));
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  std::string_view input(reinterpret_cast<const char*>(data), size);
  std::array<std::string_view, 4> parts;
  for (std::size_t i = 0; i < parts.size(); ++i) {
    const auto nul = i + 1 < parts.size() ? input.find('\0') : std::string_view::npos;
    parts[i] = input.substr(0, nul);
    input = nul == std::string_view::npos ? std::string_view() : input.substr(nul + 1);
  }
  const fs::path root = fs::temp_directory_path() / ("fuzz_static_folder." + std::to_string(::getpid()));
  fs::remove_all(root);
  write(root / "modules.json", parts[0]);
  write(root / "config.json", parts[1]);
  write(root / "0_StaticEmbedding" / "tokenizer.json", parts[2]);
  write(root / "0_StaticEmbedding" / "model.safetensors", parts[3]);
  write(root / "model.safetensors", parts[3]);
  write(root / "tokenizer.json", parts[2]);
  try {
    if (static_layout(root)) {
      const StaticModel m = load_static_model(root, "fuzz");
      const TensorView* table = m.weights.find(kStaticTable);
      bkfuzz::check(table && table->shape.size() == 2 && table->shape[0] == m.rows && table->shape[1] == m.dim);
      bkfuzz::check(table->f32().size() == static_cast<std::size_t>(m.rows * m.dim));
      bkfuzz::check(!m.truncation_max_length || *m.truncation_max_length > 0);
    }
  } catch (const bertkit::Error&) {
  }
  fs::remove_all(root);
  return 0;
}
