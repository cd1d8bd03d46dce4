#pragma once
// Reading a 2-D float32 .npy (version 1, 2 or 3; C order, little-endian), e.g. calibration embeddings.
#include <cstddef>
#include <filesystem>
#include <string>
#include <string_view>
#include <vector>

namespace bertkit::records {

struct FloatMatrix {
  std::size_t rows = 0, cols = 0;
  std::vector<float> values;  // row-major
};

// BadInput naming the file when it is not a 2-D little-endian float32 C-order array.
FloatMatrix read_npy_f32(const std::filesystem::path& path);
// The same over the file's bytes (`name` for messages).
FloatMatrix parse_npy_f32(std::string_view bytes, const std::string& name);

}  // namespace bertkit::records
