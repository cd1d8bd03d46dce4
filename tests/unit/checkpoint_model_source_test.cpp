// load_model on folders the tests build: tiny models, missing and mis-shaped tensors, f16/bf16,
// sentence-transformers layouts and the offline Hugging Face cache.
#include "support.h"
#include "unit/checkpoint_builders.h"

#include "core/loading/model_source.h"
#include "core/model/model_tensors.h"
#include "core/error.h"

#include <doctest/doctest.h>

#include <fmt/format.h>

#include <cstdlib>

using namespace bertkit;
using namespace bertkit::core;
namespace fs = std::filesystem;
using bktest::ScopedEnv;

namespace {

nlohmann::json tiny_config(const char* architecture = "BertModel") {
  return {{"architectures", {architecture}}, {"model_type", "bert"}, {"vocab_size", 12}, {"hidden_size", 4},
          {"num_hidden_layers", 1}, {"num_attention_heads", 2}, {"intermediate_size", 8},
          {"max_position_embeddings", 6}};
}

// Deterministic values: tensor k, element i = k + i / 1000.
std::vector<float> values_for(std::size_t k, std::int64_t n) {
  std::vector<float> v(static_cast<std::size_t>(n));
  for (std::size_t i = 0; i < v.size(); ++i) v[i] = static_cast<float>(k) + static_cast<float>(i) / 1000.0f;
  return v;
}

// Every tensor the config needs, with HF names ("bert." prefix), in `dtype`; `edit` may change the list.
std::vector<bktest::TestTensor> tiny_tensors(const nlohmann::json& config, const std::string& dtype = "F32") {
  bktest::TempDir dir;
  bktest::write_file(dir / "config.json", config.dump());
  ModelConfig c = read_model_config(dir / "config.json");
  std::vector<bktest::TestTensor> out;
  std::size_t k = 0;
  for (const auto& e : model_tensors(c)) {
    if (e.name == "mlm.decoder.weight") continue;  // tied
    auto values = values_for(k++, shape_numel(e.shape));
    std::string bytes;
    if (dtype == "F32") bytes = bktest::f32_bytes(values);
    for (float v : values)
      if (dtype != "F32") bytes += bktest::le(dtype == "F16" ? f32_to_f16(v) : f32_to_bf16(v), 2);
    std::string name = e.name.rfind("mlm.", 0) == 0 ? bktest::cat("cls.predictions.", e.name.substr(4))
                                                    : bktest::cat("bert.", e.name);
    if (name == "cls.predictions.decoder.bias") name = "cls.predictions.bias";
    out.push_back({name, dtype, e.shape, bytes});
  }
  return out;
}

void write_model(const fs::path& folder, const nlohmann::json& config, const std::vector<bktest::TestTensor>& tensors) {
  bktest::write_file(folder / "config.json", config.dump());
  bktest::write_file(folder / "model.safetensors", bktest::safetensors(tensors));
  bktest::write_file(folder / "vocab.txt", "[PAD]\n[UNK]\n");
}

std::string load_error(const fs::path& folder) {
  try {
    load_model(folder.string());
  } catch (const Error& e) {
    CHECK(e.kind() == ErrorKind::BadInput);
    return e.what();
  }
  FAIL("loaded");
  return "";
}

}  // namespace

TEST_CASE("model source: a tiny BERT MLM folder loads with the tied decoder") {
  bktest::TempDir dir;
  auto config = tiny_config("BertForMaskedLM");
  write_model(dir.path(), config, tiny_tensors(config));
  LoadedModel m = load_model(dir.path().string());
  CHECK(m.config.head == HeadKind::MaskedLM);
  CHECK(m.weights.find("mlm.decoder.weight")->data == m.weights.find("embeddings.word_embeddings.weight")->data);
  CHECK(m.weights.find("mlm.decoder.bias") != nullptr);
  CHECK(m.tokenizer.vocab_txt == "[PAD]\n[UNK]\n");
  CHECK(!m.tokenizer.tokenizer_json);
  CHECK(!m.sentence_transformer);
}

TEST_CASE("model source: f16 and bf16 checkpoints are handed out as f32") {
  auto config = tiny_config();
  auto f32 = tiny_tensors(config);
  for (const char* dtype : {"F16", "BF16"}) {
    INFO(dtype);
    bktest::TempDir dir;
    write_model(dir.path(), config, tiny_tensors(config, dtype));
    LoadedModel m = load_model(dir.path().string());
    const TensorView& q = m.weights.require("encoder.layer.0.attention.self.query.weight", {4, 4});
    CHECK(q.dtype == DType::F32);
    for (const auto& t : f32) {
      if (t.name != "bert.encoder.layer.0.attention.self.query.weight") continue;
      std::vector<float> want(16);
      std::memcpy(want.data(), t.bytes.data(), 64);
      for (std::size_t i = 0; i < 16; ++i) {
        float expected = std::string(dtype) == "F16" ? f16_to_f32(f32_to_f16(want[i])) : bf16_to_f32(f32_to_bf16(want[i]));
        CHECK(q.f32()[i] == expected);
      }
    }
  }
}

TEST_CASE("model source: missing, mis-shaped and unexpected tensors") {
  auto config = tiny_config();
  {
    bktest::TempDir dir;
    auto tensors = tiny_tensors(config);
    std::erase_if(tensors, [](const auto& t) { return t.name == "bert.encoder.layer.0.output.dense.weight"; });
    write_model(dir.path(), config, tensors);
    auto msg = load_error(dir.path());
    CHECK(msg.find("missing tensor encoder.layer.0.output.dense.weight (shape [4, 8])") != std::string::npos);
    CHECK(msg.find(dir.path().string()) != std::string::npos);
  }
  {
    bktest::TempDir dir;
    auto tensors = tiny_tensors(config);
    for (auto& t : tensors)
      if (t.name == "bert.pooler.dense.weight") t.shape = {2, 8};
    write_model(dir.path(), config, tensors);
    auto msg = load_error(dir.path());
    CHECK(msg.find("bert.pooler.dense.weight has shape [2, 8], expected [4, 4]") != std::string::npos);
  }
  {
    bktest::TempDir dir;
    auto tensors = tiny_tensors(config);
    tensors.push_back({"cls.seq_relationship.weight", "F32", {2, 4}, std::string(32, '\0')});
    tensors.push_back({"bert.embeddings.position_ids", "I64", {1, 6}, std::string(48, '\0')});
    write_model(dir.path(), config, tensors);
    LoadedModel m = load_model(dir.path().string());
    CHECK(m.unexpected_tensors == std::vector<std::string>{"cls.seq_relationship.weight"});
  }
  {
    // Legacy gamma/beta LayerNorm names and no pooler (optional for BertModel).
    bktest::TempDir dir;
    auto tensors = tiny_tensors(config);
    std::erase_if(tensors, [](const auto& t) { return t.name.find("pooler") != std::string::npos; });
    for (auto& t : tensors) {
      if (t.name.ends_with("LayerNorm.weight")) t.name.replace(t.name.size() - 6, 6, "gamma");
      else if (t.name.ends_with("LayerNorm.bias")) t.name.replace(t.name.size() - 4, 4, "beta");
    }
    write_model(dir.path(), config, tensors);
    LoadedModel m = load_model(dir.path().string());
    CHECK(m.weights.find("embeddings.LayerNorm.weight") != nullptr);
    CHECK(m.weights.find("encoder.layer.0.output.LayerNorm.bias") != nullptr);
    CHECK(m.weights.find("pooler.dense.weight") == nullptr);
    CHECK(m.unexpected_tensors.empty());
  }
}

TEST_CASE("model source: the minilm-embed sentence-transformers folder") {
  LoadedModel m = load_model(bktest::shared("fixtures/models/minilm-embed").string());
  REQUIRE(m.sentence_transformer);
  const auto& st = *m.sentence_transformer;
  auto pooling = bktest::read_json(bktest::shared("fixtures/models/minilm-embed/1_Pooling/config.json"));
  auto sbert = bktest::read_json(bktest::shared("fixtures/models/minilm-embed/sentence_bert_config.json"));
  CHECK(st.pooling.mean == pooling["pooling_mode_mean_tokens"].get<bool>());
  CHECK(st.pooling.cls == pooling["pooling_mode_cls_token"].get<bool>());
  CHECK(st.normalize);
  CHECK(st.dense.empty());
  CHECK(st.max_seq_length == sbert["max_seq_length"].get<int>());
  CHECK(st.do_lower_case == sbert["do_lower_case"].get<bool>());
  CHECK(m.weights.find("pooler.dense.weight") != nullptr);
}

TEST_CASE("model source: the old 0_Transformer layout with a Dense layer and prompts") {
  bktest::TempDir dir;
  auto config = tiny_config();
  write_model(dir / "0_Transformer", config, tiny_tensors(config));
  bktest::write_file(dir / "0_Transformer/sentence_bert_config.json", R"({"max_seq_length": 5, "do_lower_case": true})");
  bktest::write_file(dir / "1_Pooling/config.json", R"({"word_embedding_dimension": 4, "pooling_mode_cls_token": true})");
  bktest::write_file(dir / "2_Dense/config.json",
                      R"({"in_features": 4, "out_features": 3, "bias": true, "activation_function": "torch.nn.modules.activation.Tanh"})");
  bktest::write_file(dir / "2_Dense/model.safetensors",
                      bktest::safetensors({{"linear.weight", "F32", {3, 4}, bktest::f32_bytes(values_for(7, 12))},
                                           {"linear.bias", "F32", {3}, bktest::f32_bytes({1, 2, 3})}}));
  bktest::write_file(dir / "modules.json", R"([
    {"idx": 0, "name": "0", "path": "0_Transformer", "type": "sentence_transformers.models.Transformer"},
    {"idx": 1, "name": "1", "path": "1_Pooling", "type": "sentence_transformers.models.Pooling"},
    {"idx": 2, "name": "2", "path": "2_Dense", "type": "sentence_transformers.models.Dense"},
    {"idx": 3, "name": "3", "path": "3_Normalize", "type": "sentence_transformers.models.Normalize"}])");
  bktest::write_file(dir / "config_sentence_transformers.json",
                      R"({"prompts": {"query": "query: ", "passage": "passage: "}, "default_prompt_name": "query"})");
  LoadedModel m = load_model(dir.path().string());
  REQUIRE(m.sentence_transformer);
  const auto& st = *m.sentence_transformer;
  CHECK(m.location == dir / "0_Transformer");
  CHECK(st.pooling.cls);
  CHECK(!st.pooling.mean);
  CHECK(st.normalize);
  REQUIRE(st.dense.size() == 1);
  CHECK(st.dense[0].out_features == 3);
  CHECK(st.dense[0].activation == DenseActivation::Tanh);
  CHECK(m.weights.require("dense.0.bias", {3}).f32()[2] == 3.0f);
  CHECK(st.max_seq_length == 5);
  CHECK(st.do_lower_case == true);
  CHECK(st.prompts.at("query") == "query: ");
  CHECK(st.default_prompt_name == "query");
  CHECK(m.tokenizer.vocab_txt.has_value());

  bktest::write_file(dir / "modules.json", R"([{"idx": 0, "path": "", "type": "sentence_transformers.models.CNN"}])");
  auto msg = load_error(dir.path());
  CHECK(msg.find("unsupported module type \"sentence_transformers.models.CNN\"") != std::string::npos);
}

TEST_CASE("model source: a model id is found in the Hugging Face cache, offline") {
  bktest::TempDir cache;
  auto repo = cache / "models--test-org--tiny-bert";
  auto config = tiny_config();
  write_model(repo / "snapshots/0123abcd", config, tiny_tensors(config));
  bktest::write_file(repo / "refs/main", "0123abcd");
  // A second, older snapshot that refs/main does not name.
  write_model(repo / "snapshots/ffff0000", config, {});
  {
    ScopedEnv env("HF_HUB_CACHE", cache.path().string());
    CHECK(resolve_model_location("test-org/tiny-bert") == repo / "snapshots/0123abcd");
    LoadedModel m = load_model("test-org/tiny-bert");
    CHECK(m.config.hidden_size == 4);
    CHECK(m.name == "test-org/tiny-bert");
    try {
      load_model("test-org/absent");
      FAIL("found");
    } catch (const Error& e) {
      CHECK(std::string(e.what()).find("models--test-org--absent") != std::string::npos);
    }
  }
  {
    ScopedEnv unset_hub("HF_HUB_CACHE", "");
    ScopedEnv home("HF_HOME", cache.path().string());
    fs::create_directories(cache / "hub");
    fs::rename(repo, cache / "hub/models--test-org--tiny-bert");
    CHECK(resolve_model_location("test-org/tiny-bert") == cache / "hub/models--test-org--tiny-bert/snapshots/0123abcd");
    // transformers' own cache, when set, is looked in first; the hub cache still after it.
    bktest::TempDir transformers;
    ScopedEnv tc("TRANSFORMERS_CACHE", transformers.path().string());
    CHECK(resolve_model_location("test-org/tiny-bert") == cache / "hub/models--test-org--tiny-bert/snapshots/0123abcd");
    fs::rename(cache / "hub/models--test-org--tiny-bert", transformers / "models--test-org--tiny-bert");
    CHECK(resolve_model_location("test-org/tiny-bert") ==
          transformers / "models--test-org--tiny-bert/snapshots/0123abcd");
    try {
      resolve_model_location("test-org/absent");
      FAIL("found");
    } catch (const Error& e) {
      CHECK(std::string(e.what()).find((transformers / "models--test-org--absent").string() + " nor " +
                                       (cache / "hub/models--test-org--absent").string()) != std::string::npos);
    }
  }
  {
    bktest::TempDir hub;
    ScopedEnv unset_hub("HF_HUB_CACHE", "");
    ScopedEnv old_name("HUGGINGFACE_HUB_CACHE", hub.path().string());
    CHECK(hf_hub_cache_dir() == hub.path());
  }
}

TEST_CASE("model source: sharded pytorch_model.bin with its index, and bad indexes") {
  bktest::TempDir dir;
  auto config = tiny_config();
  auto tensors = tiny_tensors(config);
  // Each tensor in its own torch zip storage; two shards split down the middle.
  nlohmann::json weight_map = nlohmann::json::object();
  for (int shard = 0; shard < 2; ++shard) {
    std::vector<std::pair<std::string, std::string>> entries, pickled;
    for (std::size_t i = shard; i < tensors.size(); i += 2) {
      const auto& t = tensors[i];
      std::vector<std::int64_t> stride(t.shape.size(), 1);
      for (std::size_t d = t.shape.size(); d-- > 1;) stride[d - 1] = stride[d] * t.shape[d];
      std::string key = std::to_string(i);
      pickled.emplace_back(t.name, bktest::pickle_tensor("FloatStorage", key, shape_numel(t.shape), 0, t.shape, stride));
      entries.emplace_back("archive/data/" + key, t.bytes);
      weight_map[t.name] = fmt::format("pytorch_model-0000{}-of-00002.bin", shard + 1);
    }
    entries.insert(entries.begin(), {"archive/data.pkl", bktest::pickle_state_dict(pickled)});
    bktest::write_file(dir / fmt::format("pytorch_model-0000{}-of-00002.bin", shard + 1), bktest::stored_zip(entries));
  }
  bktest::write_file(dir / "config.json", config.dump());
  bktest::write_file(dir / "pytorch_model.bin.index.json", nlohmann::json{{"weight_map", weight_map}}.dump());
  LoadedModel sharded = load_model(dir.path().string());

  bktest::TempDir single;
  write_model(single.path(), config, tensors);
  LoadedModel reference = load_model(single.path().string());
  REQUIRE(sharded.weights.names() == reference.weights.names());
  for (const auto& name : reference.weights.names()) {
    INFO(name);
    CHECK(sharded.weights.values_f32(name) == reference.weights.values_f32(name));
  }

  auto index = dir / "pytorch_model.bin.index.json";
  bktest::write_file(index, R"({"weight_map": {"bert.pooler.dense.bias": "../elsewhere.bin"}})");
  CHECK(load_error(dir.path()).find("is not a plain file name") != std::string::npos);
  bktest::write_file(index, R"({"weight_map": {"bert.no.such.tensor": "pytorch_model-00001-of-00002.bin"}})");
  CHECK(load_error(dir.path()).find("bert.no.such.tensor is listed for shard") != std::string::npos);
  bktest::write_file(index, R"({"weight_map": )");
  CHECK(load_error(dir.path()).find("invalid JSON") != std::string::npos);
}
