// Every class of broken checkpoint the issue lists, built by the test: one BadInput naming the file.
#include "support.h"
#include "unit/checkpoint_builders.h"
#include "unit/expect_bad_input.h"

#include "core/checkpoint/raw_checkpoint.h"
#include "core/error.h"

#include <doctest/doctest.h>

namespace {

using namespace bertkit;
using namespace bertkit::core;
namespace fs = std::filesystem;

using bktest::expect_bad_input;

void expect_bad_safetensors(const std::string& bytes, const std::string& what) {
  bktest::TempDir dir;
  auto path = dir / "model.safetensors";
  bktest::write_file(path, bytes);
  expect_bad_input([&] { read_safetensors(path); }, path, what);
}

void expect_bad_torch(const std::string& bytes, const std::string& what) {
  bktest::TempDir dir;
  auto path = dir / "pytorch_model.bin";
  bktest::write_file(path, bytes);
  expect_bad_input([&] { read_torch_checkpoint(path); }, path, what);
}

std::string tensor_entry(const std::string& dtype, const std::string& shape, std::uint64_t begin, std::uint64_t end) {
  return bktest::cat("{\"t\":{\"dtype\":\"", dtype, "\",\"shape\":", shape, ",\"data_offsets\":[",
                     std::to_string(begin), ",", std::to_string(end), "]}}");
}

const std::string k16Bytes(16, '\1');

}  // namespace

TEST_CASE("checkpoint: broken safetensors files are refused with the file's name") {
  expect_bad_safetensors("abc", "truncated");
  expect_bad_safetensors(bktest::le(1000, 8) + "{}", "runs past the end");
  expect_bad_safetensors(bktest::safetensors_raw("{\"t\": [", k16Bytes), "invalid JSON");
  expect_bad_safetensors(bktest::safetensors_raw("[1, 2]", ""), "not a JSON object");
  expect_bad_safetensors(bktest::safetensors_raw(tensor_entry("F128", "[4]", 0, 16), k16Bytes),
                         "unknown dtype \"F128\"");
  expect_bad_safetensors(bktest::safetensors_raw(tensor_entry("F32", "[4]", 0, 32), k16Bytes),
                         "outside the data section");
  expect_bad_safetensors(bktest::safetensors_raw(tensor_entry("F32", "[2]", 16, 8), k16Bytes),
                         "outside the data section");
  expect_bad_safetensors(bktest::safetensors_raw(tensor_entry("F32", "[3]", 0, 16), k16Bytes),
                         "needs 12");
  expect_bad_safetensors(
      bktest::safetensors_raw(tensor_entry("F32", "[4611686018427387904, 4611686018427387904]", 0, 16),
                              k16Bytes),
      "overflows");
  expect_bad_safetensors(bktest::safetensors_raw(tensor_entry("F32", "[-4]", 0, 16), k16Bytes),
                         "not a non-negative integer");
  std::string overlapping =
      "{\"a\":{\"dtype\":\"F32\",\"shape\":[3],\"data_offsets\":[0,12]},"
      "\"b\":{\"dtype\":\"F32\",\"shape\":[2],\"data_offsets\":[8,16]}}";
  expect_bad_safetensors(bktest::safetensors_raw(overlapping, k16Bytes), "overlap");
  // A whole valid file cut short: the data no longer covers the offsets.
  std::string good = bktest::safetensors({{"w", "F32", {4}, bktest::f32_bytes({1, 2, 3, 4})}});
  expect_bad_safetensors(good.substr(0, good.size() - 3), "outside the data section");
  // Found by fuzz_safetensors: nlohmann throws out_of_range, not parse_error, for a number past a double.
  expect_bad_safetensors(bktest::safetensors_raw(R"({"t":{"data_offsets":[0,2e0000000000000000666]}})", k16Bytes),
                         "invalid JSON");
  // nlohmann parses any depth but copies, prints and compares recursively: a deep header is refused first.
  const std::string deep = std::string(100000, '[') + std::string(100000, ']');
  expect_bad_safetensors(bktest::safetensors_raw(tensor_entry("F32", deep, 0, 16), k16Bytes),
                         "nested deeper than 64 levels");
}

TEST_CASE("checkpoint: broken torch zip archives are refused with the file's name") {
  std::string pkl = bktest::pickle_state_dict(
      {{"w", bktest::pickle_tensor("FloatStorage", "0", 4, 0, {4}, {1})}});
  std::string data = bktest::f32_bytes({1, 2, 3, 4});
  expect_bad_torch(bktest::stored_zip({{"archive/data.pkl", pkl}, {"../evil", data}}), "contains \"..\"");
  expect_bad_torch(bktest::stored_zip({{"archive/data.pkl", pkl}, {"/etc/evil", data}}), "absolute");
  expect_bad_torch(bktest::stored_zip({{"archive/data.pkl", pkl}, {"archive/data/../../x", data}}), "\"..\"");
  std::string good = bktest::stored_zip({{"archive/data.pkl", pkl}, {"archive/data/0", data}});
  expect_bad_torch(good.substr(0, good.size() - 10), "no end of central directory");
  // Compressed entries: set the method of the first central directory entry to 8 (deflate).
  std::string compressed = good;
  compressed[compressed.find("PK\x01\x02") + 10] = 8;
  expect_bad_torch(compressed, "compressed");
  expect_bad_torch(bktest::stored_zip({{"archive/data.pkl", pkl}}), "storage 0 is missing");
  expect_bad_torch(bktest::stored_zip({{"archive/data.pkl", pkl}, {"archive/data/0", data.substr(0, 8)}}),
                   "holds 8 bytes, needs 16");
  std::string past_end = bktest::pickle_state_dict(
      {{"w", bktest::pickle_tensor("FloatStorage", "0", 4, 2, {4}, {1})}});
  expect_bad_torch(bktest::stored_zip({{"archive/data.pkl", past_end}, {"archive/data/0", data}}),
                   "reaches element 5 of storage 0, which has 4");
  expect_bad_torch(bktest::stored_zip({{"archive/other.txt", data}}), "without ARCHIVE/data.pkl");
}

TEST_CASE("checkpoint: a malicious pickle is refused before anything runs") {
  // os.system("touch pwned") via GLOBAL + REDUCE, as a zip data.pkl and as a legacy file.
  const std::string evil = bktest::cat("\x80\x02" "cos\nsystem\n", bktest::pickle_unicode("touch pwned"), "\x85R.");
  expect_bad_torch(bktest::stored_zip({{"archive/data.pkl", evil}}), "refusing to load: the pickle references os.system");
  expect_bad_torch(bktest::legacy_torch_file(evil, {}), "os.system");
  // builtins.eval through STACK_GLOBAL (protocol 4).
  const std::string eval = bktest::cat("\x80\x04", bktest::pickle_unicode("builtins"), bktest::pickle_unicode("eval"),
                                      "\x93", bktest::pickle_unicode("1"), "\x85R.");
  expect_bad_torch(bktest::stored_zip({{"archive/data.pkl", eval}}), "builtins.eval");
  // INST (protocol 0 call by name) is not an allowed opcode.
  expect_bad_torch(bktest::stored_zip({{"archive/data.pkl", "(ios\nsystem\n."}}), "unsupported pickle opcode 0x69");
  expect_bad_torch(bktest::stored_zip({{"archive/data.pkl", std::string("\x80\x02}(X\x05\x00\x00\x00" "ab", 11)}}), "truncated");
  expect_bad_torch(bktest::stored_zip({{"archive/data.pkl", "\x80\x02]."}}), "not hold a state dict");
  CHECK(!fs::exists("pwned"));
}

TEST_CASE("checkpoint: broken legacy torch files are refused with the file's name") {
  std::string pkl = bktest::pickle_state_dict({{"w", bktest::pickle_tensor("FloatStorage", "k", 4, 0, {4}, {1})}});
  std::string data = bktest::f32_bytes({1, 2, 3, 4});
  std::string good = bktest::legacy_torch_file(pkl, {{"k", 4, data}});
  expect_bad_torch(good.substr(0, good.size() - 4), "truncated: storage k needs 16 bytes, 12 left");
  expect_bad_torch(bktest::legacy_torch_file(pkl, {{"k", 3, data.substr(0, 12)}}), "3 elements in the data but 4");
  expect_bad_torch(bktest::legacy_torch_file(pkl, {}), "storage k has no data");
  expect_bad_torch("\x80\x02K\x01.", "neither zip nor the legacy magic number");
}
