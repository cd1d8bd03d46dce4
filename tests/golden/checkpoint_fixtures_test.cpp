// Every fixture checkpoint, in every format on disk, read as goldens.json's `weights` lists it; formats of
// one folder give the same bytes; every folder loads into the canonical weights its config needs.
#include "support.h"
#include "unit/same_weights.h"

#include "core/model/load_weights.h"
#include "core/loading/model_source.h"
#include "core/model/model_tensors.h"
#include "core/checkpoint/raw_checkpoint.h"

#include <doctest/doctest.h>

#include <cstring>
#include <map>
#include <set>

namespace {

namespace fs = std::filesystem;
using namespace bertkit::core;

std::vector<fs::path> checkpoint_fixture_folders() {
  std::vector<fs::path> out;
  for (const auto& e : fs::directory_iterator(bktest::shared("fixtures/models")))
    if (e.is_directory()) out.push_back(e.path());
  std::sort(out.begin(), out.end());
  return out;
}

std::string golden_dtype(DType d) {
  switch (d) {
    case DType::F32: return "float32";
    case DType::F16: return "float16";
    case DType::BF16: return "bfloat16";
    case DType::I64: return "int64";
    default: return std::string(dtype_name(d));
  }
}

void check_against_golden(const RawCheckpoint& raw, const nlohmann::json& tensors, const std::string& file) {
  INFO(file);
  std::set<std::string> seen;
  for (const auto& t : raw.tensors) {
    INFO(t.name);
    REQUIRE(tensors.contains(t.name));
    CHECK(golden_dtype(t.view.dtype) == tensors[t.name]["dtype"].get<std::string>());
    CHECK(t.view.shape == tensors[t.name]["shape"].get<Shape>());
    CHECK(t.view.nbytes == static_cast<std::size_t>(t.view.numel()) * dtype_size(t.view.dtype));
    CHECK(seen.insert(t.name).second);
  }
  CHECK(seen.size() == tensors.size());
}

}  // namespace

TEST_CASE("checkpoint: every weights file of every fixture matches goldens.json") {
  int files = 0;
  for (const auto& folder : checkpoint_fixture_folders()) {
    auto goldens = bktest::read_json(folder / "goldens.json");
    for (const auto& w : goldens["weights"]) {
      auto format = w["format"].get<std::string>();
      auto path = folder / w["file"].get<std::string>();
      if (format == "safetensors-index") {
        // The whole sharded set: the union of the shards' tensors.
        nlohmann::json all = nlohmann::json::object();
        for (const auto& shard : goldens["weights"])
          if (shard["format"] == "safetensors") all.update(shard["tensors"]);
        check_against_golden(read_weights_folder(folder), all, path.string());
      } else {
        CHECK(format != "");
        check_against_golden(read_weights_file(path), w["tensors"], path.string());
      }
      ++files;
    }
  }
  CHECK(files >= 14);
}

TEST_CASE("checkpoint: safetensors and torch zip of one model hold the same bytes") {
  for (const auto& folder : checkpoint_fixture_folders()) {
    auto goldens = bktest::read_json(folder / "goldens.json");
    if (goldens["formats_check"].is_null()) continue;
    INFO(folder);
    std::vector<RawCheckpoint> formats;
    for (const auto& w : goldens["weights"]) formats.push_back(read_weights_file(folder / w["file"].get<std::string>()));
    REQUIRE(formats.size() >= 2);
    std::map<std::string, const TensorView*> first;
    for (const auto& t : formats[0].tensors) first[t.name] = &t.view;
    for (std::size_t f = 1; f < formats.size(); ++f) {
      int compared = 0;
      for (const auto& t : formats[f].tensors) {
        auto it = first.find(t.name);
        if (it == first.end()) continue;  // e.g. the tied decoder, present only in the .bin
        INFO(t.name);
        CHECK(it->second->shape == t.view.shape);
        REQUIRE(it->second->nbytes == t.view.nbytes);
        CHECK(std::memcmp(it->second->data, t.view.data, t.view.nbytes) == 0);
        ++compared;
      }
      CHECK(compared == static_cast<int>(first.size()));
    }
  }
}

TEST_CASE("checkpoint: every fixture loads into the canonical tensors its config needs") {
  for (const auto& folder : checkpoint_fixture_folders()) {
    INFO(folder);
    LoadedModel m = load_model(folder.string());
    std::set<std::string> want;
    for (const auto& e : model_tensors(m.config))
      if (!e.optional || m.weights.find(e.name)) want.insert(e.name);
    auto names = m.weights.names();
    CHECK(std::set<std::string>(names.begin(), names.end()) == want);
    CHECK(m.unexpected_tensors.empty());
    for (const auto& e : model_tensors(m.config)) {
      if (e.optional && !m.weights.find(e.name)) continue;
      const TensorView& t = m.weights.require(e.name, e.shape);
      CHECK(t.dtype == DType::F32);
    }
    CHECK(m.tokenizer.vocab_txt.has_value());
    CHECK(m.tokenizer.tokenizer_json.has_value());
    CHECK(m.tokenizer.tokenizer_config_json.has_value());
    CHECK(m.tokenizer.special_tokens_map_json.has_value());
  }
}

TEST_CASE("checkpoint: the tied MLM decoder is the word embedding matrix") {
  for (const char* name : {"bert-uncased-mlm", "distilbert-uncased-mlm", "bert-multilingual-mlm"}) {
    INFO(name);
    LoadedModel m = load_model(bktest::shared(std::string("fixtures/models/") + name).string());
    const TensorView* decoder = m.weights.find("mlm.decoder.weight");
    const TensorView* embeddings = m.weights.find("embeddings.word_embeddings.weight");
    REQUIRE(decoder);
    REQUIRE(embeddings);
    CHECK(decoder->data == embeddings->data);
    CHECK(decoder->shape == embeddings->shape);
  }
}

TEST_CASE("checkpoint: safetensors and zip .bin of bert-uncased-mlm give the same canonical weights") {
  auto folder = bktest::shared("fixtures/models/bert-uncased-mlm");
  ModelConfig config = read_model_config(folder / "config.json");
  LoadedWeights st = load_weights(read_safetensors(folder / "model.safetensors"), config, "safetensors");
  LoadedWeights bin = load_weights(read_torch_checkpoint(folder / "pytorch_model.bin"), config, "bin");
  CHECK(st.unexpected.empty());
  CHECK(bin.unexpected.empty());
  bktest::check_same_weights(st.weights, bin.weights);
}
