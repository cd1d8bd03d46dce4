#pragma once
// --calibration FILE.npy: the per-dimension ranges that --precision int8/uint8 quantise with, read from
// float32 embeddings as sentence-transformers' quantize_embeddings(calibration_embeddings=...) does.
#include "core/model/embedding_precision.h"

#include <cstdint>
#include <optional>
#include <string>

namespace bertkit::cli {

// nullopt when `path` is empty; a usage error for a precision without ranges; bad input for a file
// that holds no rows or rows of another dimension than `dim`.
std::optional<core::Ranges> calibration_ranges(const std::string& path, core::Precision precision, std::int64_t dim);

}  // namespace bertkit::cli
