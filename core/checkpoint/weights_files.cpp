// Finding the weights of a model folder and telling file formats apart by content.
#include "core/checkpoint/raw_checkpoint.h"

#include "core/error.h"
#include "core/folder_files.h"
#include "core/json.h"

#include <fstream>
#include <map>
#include <set>

namespace bertkit::core {

namespace {

namespace fs = std::filesystem;

// model.safetensors.index.json / pytorch_model.bin.index.json: {"weight_map": {tensor: shard file}}.
RawCheckpoint read_sharded(const fs::path& index_path, RawCheckpoint (*read_shard)(const fs::path&)) {
  const std::string where = index_path.string();
  auto index = read_json_file(index_path);
  if (!index.is_object() || !index.contains("weight_map") || !index["weight_map"].is_object())
    bad_input("{}: no \"weight_map\" object", where);
  std::map<std::string, std::set<std::string>> shards;  // file -> tensor names it must hold
  for (const auto& [tensor, file] : index["weight_map"].items()) {
    if (!file.is_string()) bad_input("{}: shard of {} is not a file name", where, tensor);
    auto name = file.get<std::string>();
    fs::path p(name);
    // Shards sit next to the index: a path that leaves the folder is refused.
    if (name.empty() || p.is_absolute() || p.has_parent_path() || name == "." || name == "..")
      bad_input("{}: shard name \"{}\" is not a plain file name", where, name);
    shards[name].insert(tensor);
  }
  if (shards.empty()) bad_input("{}: \"weight_map\" is empty", where);
  RawCheckpoint out;
  out.files.push_back(index_path);
  for (const auto& [file, tensors] : shards) {
    RawCheckpoint shard = read_shard(index_path.parent_path() / file);
    std::set<std::string> found;
    for (const auto& t : shard.tensors) found.insert(t.name);
    for (const auto& t : tensors)
      if (!found.count(t)) bad_input("{}: tensor {} is listed for shard {} but missing from it", where, t, file);
    out.append(std::move(shard));
  }
  return out;
}

bool starts_with_bytes(const fs::path& path, std::string_view magic) {
  std::ifstream in(path, std::ios::binary);
  std::string head(magic.size(), '\0');
  in.read(head.data(), static_cast<std::streamsize>(head.size()));
  return in && head == magic;
}

}  // namespace

RawCheckpoint read_weights_file(const fs::path& path) {
  // Zip files start with a local file header, legacy torch files with the pickled magic number
  // (PROTO 2, LONG1 of 10 bytes); anything else is read as safetensors, whose first byte is free.
  if (starts_with_bytes(path, "PK\x03\x04") || starts_with_bytes(path, "\x80\x02\x8a\x0a"))
    return read_torch_checkpoint(path);
  return read_safetensors(path);
}

RawCheckpoint read_weights_folder(const fs::path& folder) {
  const WeightsChoice weights = choose_weights(exists_in(folder));
  if (!weights.format) bad_input("{}: no weights (looked for {})", folder.string(), weights_file_names());
  RawCheckpoint (*read)(const fs::path&) =
      weights.format->shard_extension == "safetensors" ? read_safetensors : read_torch_checkpoint;
  const fs::path file = folder / weights.file();
  return weights.layout == WeightsLayout::Single ? read(file) : read_sharded(file, read);
}

}  // namespace bertkit::core
