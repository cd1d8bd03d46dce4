// Deterministically damaged checkpoint and converted files (flipped bytes, cut lengths): every reader
// either loads them or throws bertkit::Error; none crashes (run this under -DBERTKIT_SANITIZE=ON).
#include "support.h"
#include "unit/checkpoint_builders.h"

#include "core/loading/converted_file.h"
#include "core/checkpoint/raw_checkpoint.h"
#include "core/error.h"

#include <doctest/doctest.h>

#include <functional>
#include <random>

using namespace bertkit;
using namespace bertkit::core;

namespace {

// Returns how many mutants were refused with an Error (the rest loaded).
int mutate_and_read(const std::string& good, const std::function<void(const std::filesystem::path&)>& read) {
  bktest::TempDir dir;
  auto path = dir / "f";
  std::mt19937 rng(12345);
  int refused = 0;
  for (int i = 0; i < 300; ++i) {
    std::string bad = good;
    if (i % 3 == 0) {
      bad.resize(rng() % good.size());
    } else {
      for (int k = 0; k < 1 + i % 4; ++k) bad[rng() % bad.size()] ^= static_cast<char>(1 + rng() % 255);
    }
    bktest::write_file(path, bad);
    try {
      read(path);
    } catch (const Error&) {
      ++refused;
    }
  }
  return refused;
}

std::string tiny_pickle() {
  return bktest::pickle_state_dict({{"a", bktest::pickle_tensor("FloatStorage", "0", 6, 0, {2, 3}, {3, 1})},
                                    {"b", bktest::pickle_tensor("HalfStorage", "1", 4, 1, {3}, {1})}});
}

}  // namespace

TEST_CASE("checkpoint: damaged files are loaded or refused, never a crash") {
  std::string floats = bktest::f32_bytes({1, 2, 3, 4, 5, 6});
  std::string halves(8, '\x3c');
  CHECK(mutate_and_read(bktest::safetensors({{"a", "F32", {2, 3}, floats}, {"b", "F16", {4}, halves}}),
                        [](const auto& p) { read_safetensors(p); }) > 0);
  CHECK(mutate_and_read(bktest::stored_zip({{"x/data.pkl", tiny_pickle()}, {"x/data/0", floats}, {"x/data/1", halves}}),
                        [](const auto& p) { read_torch_checkpoint(p); }) > 0);
  CHECK(mutate_and_read(bktest::legacy_torch_file(tiny_pickle(), {{"0", 6, floats}, {"1", 4, halves}}),
                        [](const auto& p) { read_torch_checkpoint(p); }) > 0);

  bktest::TempDir dir;
  LoadedModel m = load_model(bktest::shared("fixtures/models/bert-chinese-cross").string());
  m.tokenizer = {};  // keep the file small: mostly header and weights
  write_converted_file(m, dir / "m.bk", StoreType::Int8);
  CHECK(mutate_and_read(bktest::read_file(dir / "m.bk"), [](const auto& p) { check_converted_file(p); }) > 0);
}
