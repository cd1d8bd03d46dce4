#include "core/model/embedding_precision.h"

#include <algorithm>
#include <bit>
#include <cstring>
#include <cmath>
#include <limits>

namespace bertkit::core {

namespace {

// numpy's float32 -> int8/uint8 cast on x86-64 is a C cast that truncates to a 32-bit integer
// (cvttss2si: NaN and out-of-range give INT32_MIN) and keeps the low byte.
std::uint8_t numpy_byte_cast(float v) {
  constexpr float kLimit = 2147483648.0f;
  const std::int32_t i = std::isnan(v) || v >= kLimit || v < -kLimit ? std::numeric_limits<std::int32_t>::min()
                                                                      : static_cast<std::int32_t>(v);
  return static_cast<std::uint8_t>(static_cast<std::uint32_t>(i) & 0xFFu);
}

}  // namespace

std::optional<Precision> parse_precision(std::string_view name) {
  for (Precision p : {Precision::Float32, Precision::Int8, Precision::Uint8, Precision::Binary, Precision::Ubinary})
    if (name == precision_name(p)) return p;
  return std::nullopt;
}

std::string_view precision_name(Precision p) {
  switch (p) {
    case Precision::Float32: return "float32";
    case Precision::Int8: return "int8";
    case Precision::Uint8: return "uint8";
    case Precision::Binary: return "binary";
    case Precision::Ubinary: return "ubinary";
  }
  return "";
}

bool is_signed(Precision p) { return p == Precision::Int8 || p == Precision::Binary; }

std::size_t quantized_width(Precision p, std::size_t dim) {
  return p == Precision::Binary || p == Precision::Ubinary ? (dim + 7) / 8 : dim;
}

void Ranges::add(std::span<const float> rows) {
  for (std::size_t r = 0; r + dim_ <= rows.size(); r += dim_) {
    const float* row = rows.data() + r;
    if (mins_.empty()) {
      mins_.assign(row, row + dim_);
      maxs_.assign(row, row + dim_);
      continue;
    }
    for (std::size_t d = 0; d < dim_; ++d) {
      mins_[d] = std::min(mins_[d], row[d]);
      maxs_[d] = std::max(maxs_[d], row[d]);
    }
  }
}

std::size_t Ranges::single_value_dimensions() const {
  std::size_t n = 0;
  for (std::size_t d = 0; d < mins_.size(); ++d) n += mins_[d] == maxs_[d];
  return n;
}

void quantize_row(Precision p, std::span<const float> row, const Ranges* ranges, std::span<std::uint8_t> out) {
  if (p == Precision::Binary || p == Precision::Ubinary) {
    // numpy.packbits: big-endian bits, the last byte padded with zeros.
    std::fill(out.begin(), out.end(), std::uint8_t{0});
    for (std::size_t d = 0; d < row.size(); ++d)
      if (row[d] > 0) out[d / 8] |= static_cast<std::uint8_t>(0x80u >> (d % 8));
    // binary: packbits(...) - 128 in uint8 arithmetic, read as int8.
    if (p == Precision::Binary)
      for (auto& b : out) b = static_cast<std::uint8_t>(b - 128u);
    return;
  }
  // int8/uint8, in float32 throughout as numpy computes it: steps = (maxs - mins) / 255.
  const auto mins = ranges->mins(), maxs = ranges->maxs();
  for (std::size_t d = 0; d < row.size(); ++d) {
    const float step = (maxs[d] - mins[d]) / 255.0f;
    float v = (row[d] - mins[d]) / step;
    if (p == Precision::Int8) v -= 128.0f;
    out[d] = numpy_byte_cast(v);
  }
}

void quantized_values(Precision p, std::span<const std::uint8_t> row, std::span<float> out) {
  for (std::size_t d = 0; d < row.size(); ++d)
    out[d] = is_signed(p) ? static_cast<float>(static_cast<std::int8_t>(row[d])) : static_cast<float>(row[d]);
}

std::size_t hamming_distance(std::span<const std::uint8_t> a, std::span<const std::uint8_t> b) {
  std::size_t bits = 0, d = 0;
  for (; d + 8 <= a.size(); d += 8) {
    std::uint64_t x, y;
    std::memcpy(&x, a.data() + d, 8);
    std::memcpy(&y, b.data() + d, 8);
    bits += static_cast<std::size_t>(std::popcount(x ^ y));
  }
  for (; d < a.size(); ++d) bits += static_cast<std::size_t>(std::popcount(static_cast<unsigned>(a[d] ^ b[d])));
  return bits;
}

}  // namespace bertkit::core
