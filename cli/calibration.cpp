#include "cli/calibration.h"

#include "core/error.h"
#include "records/npy_reader.h"

namespace bertkit::cli {

std::optional<core::Ranges> calibration_ranges(const std::string& path, core::Precision precision, std::int64_t dim) {
  const bool ranged = precision == core::Precision::Int8 || precision == core::Precision::Uint8;
  if (path.empty()) return std::nullopt;
  if (!ranged) usage_error("--calibration gives the ranges of --precision int8 or uint8");
  records::FloatMatrix m = records::read_npy_f32(path);
  if (m.rows == 0) bad_input("{}: no calibration embeddings", path);
  if (m.cols != static_cast<std::size_t>(dim))
    bad_input("{}: calibration embeddings of {} dimensions, the model's embeddings have {}", path, m.cols, dim);
  core::Ranges ranges(m.cols);
  ranges.add(m.values);
  return ranges;
}

}  // namespace bertkit::cli
