#include "core/model/gather_rows.h"

#include "core/error.h"

#include <algorithm>

namespace bertkit::core {

const float* gather_rows(const EncoderOutput& out, std::span<const TokenPosition> positions, FloatBuffer& buffer) {
  const std::int64_t h = out.hidden_size;
  float* rows = buffer.reserve(positions.size() * static_cast<std::size_t>(h));
  for (std::size_t i = 0; i < positions.size(); ++i) {
    const auto& p = positions[i];
    if (p.sequence >= out.size() || p.position < 0 || p.position >= out.length(p.sequence))
      bad_input("token {} of input {} does not exist", p.position, p.sequence + 1);
    const float* row = out.row(p.sequence, p.position);
    std::copy(row, row + h, rows + static_cast<std::int64_t>(i) * h);
  }
  return rows;
}

const float* gather_first_rows(const EncoderOutput& out, FloatBuffer& buffer) {
  const std::int64_t h = out.hidden_size;
  float* rows = buffer.reserve(out.size() * static_cast<std::size_t>(h));
  for (std::size_t s = 0; s < out.size(); ++s) std::copy(out.row(s, 0), out.row(s, 0) + h, rows + static_cast<std::int64_t>(s) * h);
  return rows;
}

}  // namespace bertkit::core
