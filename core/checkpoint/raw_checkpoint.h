#pragma once
// What every checkpoint reader produces: the tensors of one or more weights files under the names the
// file uses, with the dtypes it stores. Views point into memory maps (zero copy) or buffers, all kept
// alive by `owners`. Name mapping and dtype conversion happen later (core/model/load_weights.h).
#include "core/tensor.h"

#include <filesystem>
#include <memory>
#include <string>
#include <vector>

namespace bertkit::core {

struct RawTensor {
  std::string name;
  TensorView view;  // contiguous, little-endian, row-major
};

struct RawCheckpoint {
  std::vector<RawTensor> tensors;
  std::vector<std::shared_ptr<const void>> owners;
  std::vector<std::filesystem::path> files;  // every file read, for messages and `info`

  void append(RawCheckpoint&& other);
};

// One safetensors file, mapped into memory; every tensor is a view into the map.
RawCheckpoint read_safetensors(const std::filesystem::path& path);
// A pytorch_model.bin: the zip format of torch >= 1.6 or the legacy pickle format (told apart by content).
RawCheckpoint read_torch_checkpoint(const std::filesystem::path& path);
// Any single weights file, by content (safetensors, torch zip, torch legacy).
RawCheckpoint read_weights_file(const std::filesystem::path& path);
// The weights of a Hugging Face model folder: model.safetensors, model.safetensors.index.json,
// pytorch_model.bin or pytorch_model.bin.index.json, in that order of preference.
RawCheckpoint read_weights_folder(const std::filesystem::path& folder);

// Checked arithmetic for sizes read from files: BadInput naming `what` on overflow.
std::size_t checked_nbytes(const Shape& shape, DType dtype, std::string_view what);

}  // namespace bertkit::core
