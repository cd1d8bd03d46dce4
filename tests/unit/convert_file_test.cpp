// Broken converted files: each refused with one BadInput naming the file, before any tensor is used.
#include "support.h"
#include "unit/checkpoint_builders.h"
#include "unit/expect_bad_input.h"
#include "unit/same_weights.h"

#include "commands/convert.h"
#include "core/ops/cpu_features.h"
#include "core/loading/converted_file.h"
#include "core/error.h"
#include "core/hash64.h"

#include <doctest/doctest.h>

#include <functional>

using namespace bertkit;
using namespace bertkit::core;
namespace fs = std::filesystem;

namespace {

std::string converted_fixture(const bktest::TempDir& dir) {
  LoadedModel m = load_model(bktest::shared("fixtures/models/bert-chinese-cross").string());
  write_converted_file(m, dir / "good.bk", StoreType::F32);
  return bktest::read_file(dir / "good.bk");
}

std::uint64_t read_u64(const std::string& s, std::size_t at) {
  std::uint64_t v = 0;
  std::memcpy(&v, s.data() + at, 8);
  return v;
}

// The file with its JSON header replaced by edit(header): the data moves with the header's new length.
std::string with_header(const std::string& file, const std::function<void(nlohmann::json&)>& edit) {
  std::uint64_t len = read_u64(file, 16);
  auto header = nlohmann::json::parse(file.substr(24, len));
  std::size_t data_start = (24 + len + 63) / 64 * 64;
  edit(header);
  std::string text = header.dump();
  std::string out = file.substr(0, 16) + bktest::le(text.size(), 8) + text;
  out.resize((out.size() + 63) / 64 * 64, '\0');
  return out + file.substr(data_start);
}

void expect_converted_refused(const std::string& bytes, const std::string& what, bool check_only = false) {
  bktest::TempDir dir;
  auto path = dir / "model.bk";
  bktest::write_file(path, bytes);
  bktest::expect_bad_input(
      [&] {
        if (check_only) check_converted_file(path);
        else load_converted_file(path, path.string());
      },
      path, what);
}

}  // namespace

TEST_CASE("hash64: XXH64 reference values, whole and streamed") {
  auto digest = [](std::string_view s) {
    Hash64 h;
    h.update(std::as_bytes(std::span(s.data(), s.size())));
    return h.digest();
  };
  CHECK(digest("") == 0xEF46DB3751D8E999ull);
  CHECK(digest("a") == 0xD24EC4F1A98C6E5Bull);
  CHECK(digest("abc") == 0x44BC2CF5AD770999ull);
  CHECK(digest("xxhash") == 0x32DD38952C4BC720ull);
  CHECK(digest("Nobody inspects the spammish repetition") == 0xFBCEA83C8A378BF1ull);
  std::string long_text(1000, 'x');
  for (std::size_t i = 0; i < long_text.size(); ++i) long_text[i] = static_cast<char>(i * 7);
  for (std::size_t split : {1, 5, 31, 32, 33, 500}) {
    Hash64 h;
    h.update(std::as_bytes(std::span(long_text.data(), split)));
    h.update(std::as_bytes(std::span(long_text.data() + split, long_text.size() - split)));
    CHECK(h.digest() == digest(long_text));
  }
}

TEST_CASE("convert: broken converted files are refused with the file's name") {
  bktest::TempDir dir;
  const std::string good = converted_fixture(dir);
  expect_converted_refused(good.substr(0, 20), "too short");
  expect_converted_refused(good.substr(0, good.size() / 2), "no checksum trailer");
  std::string bad_magic = good;
  bad_magic[0] = 'X';
  expect_converted_refused(bad_magic, "no BERTKIT magic");
  std::string newer = good;
  newer[8] = 3;
  expect_converted_refused(newer, "format version 3");
  expect_converted_refused(good.substr(0, 16) + bktest::le(1ull << 40, 8) + good.substr(24), "header length runs past the end");
  std::string bad_json = good;
  bad_json[24] = '[';
  bad_json[25] = '{';
  expect_converted_refused(bad_json, "invalid JSON");
  expect_converted_refused(with_header(good, [](auto& h) { h["tensors"][0]["offset"] = 8; }), "not 64-byte aligned");
  expect_converted_refused(with_header(good, [](auto& h) { h["tensors"][0]["offset"] = h["data_size"].template get<std::uint64_t>() + 64; }),
                 "outside the data section");
  expect_converted_refused(with_header(good, [](auto& h) { h["tensors"][1]["offset"] = h["tensors"][0]["offset"]; }), "overlap");
  expect_converted_refused(with_header(good, [](auto& h) { h["tensors"][0]["dtype"] = "F64"; }), "unknown dtype \"F64\"");
  expect_converted_refused(with_header(good, [](auto& h) { h["tensors"][0]["shape"] = {1ll << 20, 1ll << 20}; }), "bytes for shape");
  expect_converted_refused(with_header(good, [](auto& h) { h["tensors"][0]["shape"] = {4611686018427387904ll, 4611686018427387904ll}; }),
                 "overflows");
  expect_converted_refused(with_header(good, [](auto& h) { h["tensors"].erase(h["tensors"].size() - 1); }), "missing tensor");
  expect_converted_refused(with_header(good, [](auto& h) { h["data_size"] = 1; }), "does not match the file size");
  expect_converted_refused(with_header(good, [](auto& h) { h["config_json"] = "{\"model_type\": \"gpt2\"}"; }), "\"gpt2\"");
  // A damaged tensor byte: the structure is fine, the checksum is not.
  std::string damaged = good;
  damaged[damaged.size() - 100] ^= 1;
  expect_converted_refused(damaged, "checksum mismatch", /*check_only=*/true);
}

TEST_CASE("convert: damaged packed matrices are refused naming the tensor, before any is used") {
  bktest::TempDir dir;
  // int8 where this machine packs it (VNNI: cpu_features.h), else f32, which every machine packs.
  const StoreType type = int8_matmul_supported(cpu_selection()) ? StoreType::Int8 : StoreType::F32;
  cmd::convert_model(bktest::shared("fixtures/models/bert-chinese-cross").string(), dir / "int8.bk", type);
  const std::string good = bktest::read_file(dir / "int8.bk");
  load_converted_file(dir / "int8.bk", "int8.bk");  // the undamaged file loads
  const auto header = nlohmann::json::parse(good.substr(24, read_u64(good, 16)));
  REQUIRE(!header["packed"].empty());
  const std::string name = header["packed"][0]["name"];
  expect_converted_refused(with_header(good, [](auto& h) { h["packed"][0]["nbytes"] = h["packed"][0]["nbytes"].template get<std::uint64_t>() - 64; }),
                           "packed " + name + " has");
  expect_converted_refused(with_header(good, [](auto& h) { h["packed"][0]["layout"] = "s8:NoSuchTag:comp2"; }),
                           "packed " + name + " has layout \"s8:NoSuchTag:comp2\", unknown");
  expect_converted_refused(with_header(good, [](auto& h) { h["packed"][0]["layout"] = "s8:BA16a64b4a:compX"; }),
                           "packed " + name + " has layout");
  expect_converted_refused(with_header(good, [](auto& h) { h["packed"][0]["shape"] = {7, 3}; }), "shape [7, 3]");  // wrong size, or not the config's
  expect_converted_refused(with_header(good, [](auto& h) { h["packed"][0]["shape"] = {-64, 32}; }), "packed " + name + " has shape");
  expect_converted_refused(with_header(good, [](auto& h) { h["packed"][0]["shape"] = {1ll << 20, 1ll << 20}; }),
                           "bytes for shape [1048576, 1048576]");
  expect_converted_refused(with_header(good, [](auto& h) { h["packed"][0]["shape"] = {1ll << 62, 1ll << 62}; }), "overflows");
  expect_converted_refused(with_header(good, [](auto& h) { h["packed"][0]["parts"] = nlohmann::json::array(); }), "packed " + name + " has shape");
  expect_converted_refused(with_header(good, [](auto& h) { h["packed"][0]["parts"][0] = h["tensors"][0]["name"]; }), "appears twice");
  expect_converted_refused(with_header(good, [](auto& h) { h["packed"][1]["parts"] = h["packed"][0]["parts"]; }), "appears twice");
  expect_converted_refused(with_header(good, [](auto& h) { h["packed"][0]["parts"] = 7; }), "\"parts\" has the wrong type");
  // Parts the config does not have the shapes of.
  const std::string part = header["packed"][0]["parts"][0];
  expect_converted_refused(with_header(good, [](auto& h) { h["packed"][0]["parts"][0] = "encoder.layer.0.no_such.weight"; }),
                           "missing tensor " + part);
}

TEST_CASE("convert: a version 1 file (every tensor plain) still loads") {
  bktest::TempDir dir;
  std::string old = converted_fixture(dir);
  old[8] = 1;
  bktest::write_file(dir / "v1.bk", old);
  LoadedModel m = load_converted_file(dir / "v1.bk", "v1.bk");
  LoadedModel original = load_model(bktest::shared("fixtures/models/bert-chinese-cross").string());
  bktest::check_same_weights(original.weights, m.weights);
}
