#pragma once
// Writing tensors as one safetensors file, the format Hugging Face folders hold (read back by
// read_safetensors): for `bench --save`, which hands out its random-weight models as real folders.
#include "core/checkpoint/weights.h"

#include <filesystem>

namespace bertkit::core {

// Every tensor of `weights` under its name, as stored (dtype and bytes); written atomically.
void write_safetensors(const Weights& weights, const std::filesystem::path& destination);

}  // namespace bertkit::core
