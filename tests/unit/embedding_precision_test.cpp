// Embedding quantisation against small hand-computed cases of sentence-transformers'
// quantize_embeddings (numpy float32 arithmetic, C casts, packbits).
#include "core/model/embedding_precision.h"

#include <doctest/doctest.h>

#include <cstdint>
#include <vector>

using namespace bertkit::core;

namespace {

std::vector<int> quantized(Precision p, const std::vector<float>& row, const Ranges* ranges) {
  std::vector<std::uint8_t> bytes(quantized_width(p, row.size()));
  quantize_row(p, row, ranges, bytes);
  std::vector<int> values;
  for (std::uint8_t b : bytes) values.push_back(is_signed(p) ? int(static_cast<std::int8_t>(b)) : int(b));
  return values;
}

}  // namespace

TEST_CASE("quantization: ranges are each dimension's min and max over every row added") {
  Ranges r(2);
  CHECK(r.empty());
  r.add(std::vector<float>{1, -2, 3, 5});
  r.add(std::vector<float>{-4, 0});
  CHECK(std::vector<float>(r.mins().begin(), r.mins().end()) == std::vector<float>{-4, -2});
  CHECK(std::vector<float>(r.maxs().begin(), r.maxs().end()) == std::vector<float>{3, 5});
}

TEST_CASE("quantization: int8 and uint8 buckets, truncated toward zero") {
  // Dimension 0 spans [0, 255] (steps 1), dimension 1 [-255, 255] (steps 2), dimension 2 one value.
  Ranges r(3);
  r.add(std::vector<float>{0, -255, 7, 255, 255, 7});
  // uint8: (x - min) / step; int8: that minus 128, so 0.5 - 128 = -127.5 is -127 and -0.5 is 0.
  CHECK(quantized(Precision::Uint8, {3.7f, 1, 7}, &r) == std::vector<int>{3, 128, 0});
  CHECK(quantized(Precision::Int8, {3.7f, 1, 7}, &r) == std::vector<int>{-124, 0, 0});
  CHECK(quantized(Precision::Int8, {0.5f, -0.0f, 7}, &r) == std::vector<int>{-127, 0, 0});
  CHECK(quantized(Precision::Uint8, {0.5f, -0.0f, 7}, &r) == std::vector<int>{0, 127, 0});
  CHECK(quantized(Precision::Int8, {0, -255, 7}, &r) == std::vector<int>{-128, -128, 0});
  CHECK(quantized(Precision::Int8, {255, 255, 7}, &r) == std::vector<int>{127, 127, 0});
  CHECK(quantized(Precision::Uint8, {255, 255, 7}, &r) == std::vector<int>{255, 255, 0});
  // Outside calibration ranges numpy's cast wraps the low byte: 300 is 44 (uint8), 172 is -84 (int8).
  CHECK(quantized(Precision::Uint8, {300, 1, 7}, &r) == std::vector<int>{44, 128, 0});
  CHECK(quantized(Precision::Int8, {300, 1, 7}, &r) == std::vector<int>{-84, 0, 0});
}

TEST_CASE("quantization: binary and ubinary pack x > 0 big-endian, padding the last byte") {
  // 10 dimensions: bits 1000 1001 | 10 (0 and -0.0 are not > 0).
  const std::vector<float> row{1, -1, 0, -0.0f, 2, 0, 0, 0.5f, 1e-30f, 0};
  CHECK(quantized_width(Precision::Binary, row.size()) == 2);
  CHECK(quantized(Precision::Ubinary, row, nullptr) == std::vector<int>{0x89, 0x80});
  CHECK(quantized(Precision::Binary, row, nullptr) == std::vector<int>{0x89 - 128, 0});
  CHECK(quantized(Precision::Ubinary, std::vector<float>(8, -0.0f), nullptr) == std::vector<int>{0});
  CHECK(quantized(Precision::Binary, std::vector<float>(8, -0.0f), nullptr) == std::vector<int>{-128});
  CHECK(quantized(Precision::Binary, std::vector<float>(16, 3), nullptr) == std::vector<int>{127, 127});
}

TEST_CASE("quantization: precision names") {
  CHECK(parse_precision("ubinary") == Precision::Ubinary);
  CHECK(precision_name(Precision::Int8) == "int8");
  CHECK(quantized_width(Precision::Uint8, 10) == 10);
}
