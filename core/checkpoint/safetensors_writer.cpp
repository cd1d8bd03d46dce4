#include "core/checkpoint/safetensors_writer.h"

#include "core/files.h"

#include <nlohmann/json.hpp>

#include <cstdint>
#include <string>

namespace bertkit::core {

void write_safetensors(const Weights& weights, const std::filesystem::path& destination) {
  nlohmann::ordered_json header = {{"__metadata__", {{"format", "pt"}}}};
  std::uint64_t offset = 0;
  const auto names = weights.names();
  for (const auto& name : names) {
    const TensorView& t = *weights.find(name);
    header[name] = {{"dtype", dtype_name(t.dtype)}, {"shape", t.shape}, {"data_offsets", {offset, offset + t.nbytes}}};
    offset += t.nbytes;
  }
  std::string text = header.dump();
  while (text.size() % 8) text.push_back(' ');  // the data section starts 8-byte aligned, as safetensors writes it
  const std::uint64_t length = text.size();      // little-endian on every machine bertkit runs on

  AtomicFile out(destination);
  out.write(std::as_bytes(std::span(&length, 1)));
  out.write(std::as_bytes(std::span(text)));
  for (const auto& name : names) {
    const TensorView& t = *weights.find(name);
    out.write({t.data, t.nbytes});
  }
  out.commit();
}

}  // namespace bertkit::core
