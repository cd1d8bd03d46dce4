#pragma once
// Gathering chosen rows of an encoder output into a dense matrix, for the heads.
#include "core/model/encoder.h"
#include "core/ops/buffer.h"

#include <cstdint>
#include <span>

namespace bertkit::core {

// A token of a batch: sequence index and position within it.
struct TokenPosition {
  std::size_t sequence = 0;
  std::int64_t position = 0;
};

// [positions.size(), hidden] copied from the last hidden state; BadInput for a position outside its sequence.
const float* gather_rows(const EncoderOutput& out, std::span<const TokenPosition> positions, FloatBuffer& buffer);

// Row 0 ([CLS]) of every sequence: [batch, hidden].
const float* gather_first_rows(const EncoderOutput& out, FloatBuffer& buffer);

}  // namespace bertkit::core
