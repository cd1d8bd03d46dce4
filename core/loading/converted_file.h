#pragma once
// bertkit's own model file: everything `-m` needs in one memory-mapped file (layout:
// converted_format.h). The writer serialises the weights with_store_type (reduce_weights.h) makes;
// the reader hands them back as views into the map.
//
// Loading validates the header against the file before any tensor is touched. The checksum is verified
// by check_converted_file (`convert --check`), not at load: hashing a BERT-base file would cost more
// than the whole load.
#include "core/loading/model_source.h"
#include "core/checkpoint/store_type.h"

#include <cstdint>
#include <filesystem>
#include <string>

namespace bertkit::core {

// Linear weights [out, in] are stored as `type` (see reducible()); embeddings, LayerNorm parameters and
// biases stay f32. Packed matrices of model.weights that hold their parts in that type are stored
// instead of those parts.
void write_converted_file(const LoadedModel& model, const std::filesystem::path& destination, StoreType type);

bool is_converted_file(const std::filesystem::path& path);  // by its magic
LoadedModel load_converted_file(const std::filesystem::path& path, std::string_view spec);
// Its tokenizer's files only: the header is read and checked, no weight is looked at.
TokenizerFiles read_converted_tokenizer(const std::filesystem::path& path);

struct ConvertedFileCheck {
  std::uint64_t checksum = 0;
  std::size_t tensors = 0;  // weights, not counting int8 scales
  std::uint64_t bytes = 0;
  std::string dtype;
};
// Validates the structure (as loading does) and the checksum; BadInput naming the file on any mismatch.
ConvertedFileCheck check_converted_file(const std::filesystem::path& path);

}  // namespace bertkit::core
