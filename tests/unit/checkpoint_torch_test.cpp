// The torch readers on hand-built files: dtypes, strides, shared storages, parameters.
#include "support.h"
#include "unit/checkpoint_builders.h"

#include "core/checkpoint/raw_checkpoint.h"

#include <doctest/doctest.h>

using namespace bertkit::core;

namespace {

std::vector<float> values_of(const RawCheckpoint& raw, const std::string& name) {
  for (const auto& t : raw.tensors)
    if (t.name == name) return to_f32(t.view);
  FAIL("no tensor " << name);
  return {};
}

std::string f16_bytes(const std::vector<float>& values) {
  std::string s;
  for (float v : values) s += bktest::le(f32_to_f16(v), 2);
  return s;
}

}  // namespace

TEST_CASE("checkpoint: a legacy torch file with shared, strided and f16 storages") {
  // "t" is the transpose of a 2x3 matrix (strides (1, 3)); "row" is row 1 of the same storage (offset 3);
  // "h" is an f16 tensor.
  std::string pkl = bktest::pickle_state_dict({
      {"t", bktest::pickle_tensor("FloatStorage", "a", 6, 0, {3, 2}, {1, 3})},
      {"row", bktest::pickle_tensor("FloatStorage", "a", 6, 3, {3}, {1})},
      {"h", bktest::pickle_tensor("HalfStorage", "b", 2, 0, {2}, {1})},
  });
  bktest::TempDir dir;
  bktest::write_file(dir / "pytorch_model.bin",
                      bktest::legacy_torch_file(pkl, {{"a", 6, bktest::f32_bytes({1, 2, 3, 4, 5, 6})},
                                                      {"b", 2, f16_bytes({0.5f, -2.0f})}}));
  RawCheckpoint raw = read_torch_checkpoint(dir / "pytorch_model.bin");
  REQUIRE(raw.tensors.size() == 3);
  CHECK(raw.tensors[0].name == "t");
  CHECK(raw.tensors[0].view.shape == Shape{3, 2});
  CHECK(values_of(raw, "t") == std::vector<float>{1, 4, 2, 5, 3, 6});
  CHECK(values_of(raw, "row") == std::vector<float>{4, 5, 6});
  CHECK(raw.tensors[2].view.dtype == DType::F16);
  CHECK(values_of(raw, "h") == std::vector<float>{0.5f, -2.0f});
}

TEST_CASE("checkpoint: a torch zip with a parameter, bf16 storage and another archive name") {
  std::string param = bktest::cat("ctorch._utils\n_rebuild_parameter\n(",
                                  bktest::pickle_tensor("BFloat16Storage", "0", 3, 0, {3}, {1}),
                                  "\x88" "ccollections\nOrderedDict\n)RtR");
  std::string pkl = bktest::pickle_state_dict({{"p", param}});
  std::string bf16;
  for (float v : {1.0f, -0.25f, 3.0f}) bf16 += bktest::le(f32_to_bf16(v), 2);
  bktest::TempDir dir;
  bktest::write_file(dir / "w.bin", bktest::stored_zip({{"my_model/data.pkl", pkl},
                                                        {"my_model/byteorder", "little"},
                                                        {"my_model/data/0", bf16}}));
  RawCheckpoint raw = read_weights_file(dir / "w.bin");
  REQUIRE(raw.tensors.size() == 1);
  CHECK(raw.tensors[0].view.dtype == DType::BF16);
  CHECK(values_of(raw, "p") == std::vector<float>{1.0f, -0.25f, 3.0f});
}

TEST_CASE("tensor: f16 and bf16 conversions round to nearest even and keep specials") {
  for (std::uint32_t h = 0; h < 0x10000; ++h) {
    float f = f16_to_f32(static_cast<std::uint16_t>(h));
    if (f != f) continue;  // nan payloads are not preserved bit for bit
    CHECK(f32_to_f16(f) == h);
  }
  CHECK(f32_to_f16(65504.0f) == 0x7bff);
  CHECK(f32_to_f16(65520.0f) == 0x7c00);         // rounds up to inf
  CHECK(f32_to_f16(1.0f + 0x1p-11f) == 0x3c00);  // halfway: to even (down)
  CHECK(f32_to_f16(1.0f + 3 * 0x1p-11f) == 0x3c02);  // halfway: to even (up)
  CHECK(f32_to_f16(0x1p-25f) == 0);               // halfway to the smallest subnormal: to even (zero)
  CHECK(f16_to_f32(0x0001) == 0x1p-24f);
  CHECK(f32_to_bf16(1.0f + 0x1p-8f) == 0x3f80);   // halfway: to even
  CHECK(f32_to_bf16(1.0f + 3 * 0x1p-8f) == 0x3f82);
  CHECK(bf16_to_f32(0x3f80) == 1.0f);
}
