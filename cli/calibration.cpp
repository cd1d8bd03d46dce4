#include "cli/calibration.h"

#include "core/error.h"
#include "records/log.h"
#include "records/npy_reader.h"

#include <fmt/format.h>

#include <string>

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
  // One row (or rows all alike) gives no range at all: every value would quantise to 0.
  const std::size_t single = ranges.single_value_dimensions();
  if (single == m.cols)
    bad_input("{}: {} give{} no range (each dimension has one value, every embedding would quantise to 0): give "
              "the float32 embeddings of many texts", path,
              m.rows == 1 ? std::string("one calibration embedding") : fmt::format("{} identical calibration embeddings", m.rows),
              m.rows == 1 ? "s" : "");
  if (single)
    records::warn("{}: {} of {} dimensions have one value in every calibration embedding: they quantise to 0", path,
                  single, m.cols);
  return ranges;
}

}  // namespace bertkit::cli
