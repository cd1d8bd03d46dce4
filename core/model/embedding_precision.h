#pragma once
// Embedding quantisation as sentence-transformers' quantize_embeddings: int8/uint8 map each dimension's
// range [min, max] onto 256 buckets; binary/ubinary keep the sign bit (x > 0), eight dimensions a byte.
#include <cstddef>
#include <cstdint>
#include <optional>
#include <span>
#include <string_view>
#include <vector>

namespace bertkit::core {

enum class Precision { Float32, Int8, Uint8, Binary, Ubinary };

// float32, int8, uint8, binary or ubinary; nullopt for any other name (the caller says where it came from).
std::optional<Precision> parse_precision(std::string_view name);
std::string_view precision_name(Precision p);
bool is_signed(Precision p);  // int8 and binary hold signed bytes

// Bytes per quantised row of `dim` values: dim, or ceil(dim / 8) for binary and ubinary.
std::size_t quantized_width(Precision p, std::size_t dim);

// Per dimension, the minimum and the maximum over the rows seen (the `ranges` of int8/uint8).
class Ranges {
 public:
  explicit Ranges(std::size_t dim) : dim_(dim) {}
  void add(std::span<const float> rows);  // rows of dim values
  bool empty() const { return mins_.empty(); }
  std::span<const float> mins() const { return mins_; }
  std::span<const float> maxs() const { return maxs_; }
  // Dimensions whose range is one value (every row alike there: always so for a single row). The step
  // of such a dimension is 0, and quantize_embeddings' 0/0 writes 0 for every row there.
  std::size_t single_value_dimensions() const;

 private:
  std::size_t dim_;
  std::vector<float> mins_, maxs_;
};

// Quantises one row into quantized_width(p, row.size()) bytes (int8 and binary as two's complement).
// int8/uint8 need `ranges`; float32 is not quantised.
void quantize_row(Precision p, std::span<const float> row, const Ranges* ranges, std::span<std::uint8_t> out);

// What a search compares of quantised rows: the integer values of int8/uint8 rows as floats (int8
// read as signed), for the metric to take.
void quantized_values(Precision p, std::span<const std::uint8_t> row, std::span<float> out);

// Bits that differ between two packed binary/ubinary rows of the same width: binary is ubinary with
// the top bit of every byte flipped (packbits - 128), so both give the same distance.
std::size_t hamming_distance(std::span<const std::uint8_t> a, std::span<const std::uint8_t> b);

}  // namespace bertkit::core
