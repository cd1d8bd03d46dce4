// convert then load: every fixture comes back with the same config, tokenizer files, settings and f32
// bytes; reduced dtypes stay within their rounding error.
#include "support.h"
#include "unit/same_weights.h"

#include "core/loading/converted_file.h"
#include "core/loading/model_source.h"
#include "core/checkpoint/reduce_weights.h"
#include "core/model/encoder.h"

#include <doctest/doctest.h>

#include <cmath>
#include <cstring>
#include <memory>

using namespace bertkit::core;
namespace fs = std::filesystem;

namespace {

void check_same_settings(const LoadedModel& a, const LoadedModel& b) {
  CHECK(a.config_json == b.config_json);
  CHECK(a.config.architecture == b.config.architecture);
  CHECK(a.config.id2label == b.config.id2label);
  CHECK(a.tokenizer.vocab_txt == b.tokenizer.vocab_txt);
  CHECK(a.tokenizer.tokenizer_json == b.tokenizer.tokenizer_json);
  CHECK(a.tokenizer.tokenizer_config_json == b.tokenizer.tokenizer_config_json);
  CHECK(a.tokenizer.special_tokens_map_json == b.tokenizer.special_tokens_map_json);
  REQUIRE(a.sentence_transformer.has_value() == b.sentence_transformer.has_value());
  if (a.sentence_transformer) {
    const auto &x = *a.sentence_transformer, &y = *b.sentence_transformer;
    CHECK(x.pooling.mean == y.pooling.mean);
    CHECK(x.pooling.cls == y.pooling.cls);
    CHECK(x.normalize == y.normalize);
    CHECK(x.max_seq_length == y.max_seq_length);
    CHECK(x.do_lower_case == y.do_lower_case);
    CHECK(x.prompts == y.prompts);
    CHECK(x.dense.size() == y.dense.size());
  }
}

}  // namespace

TEST_CASE("convert: every fixture converted to f32 loads back with the same bytes") {
  bktest::TempDir dir;
  for (const auto& e : fs::directory_iterator(bktest::shared("fixtures/models"))) {
    if (!e.is_directory()) continue;
    INFO(e.path());
    LoadedModel original = load_model(e.path().string());
    auto file = dir / (e.path().filename().string() + ".bk");
    write_converted_file(original, file, StoreType::F32);
    LoadedModel converted = load_model(file.string());
    check_same_settings(original, converted);
    CHECK(converted.stored_dtype == DType::F32);
    bktest::check_same_weights(original.weights, converted.weights);
    for (const auto& name : converted.weights.names()) {
      INFO(name);
      const TensorView* t = converted.weights.find(name);
      CHECK(t->dtype == DType::F32);
      CHECK(reinterpret_cast<std::uintptr_t>(t->data) % 64 == 0);
    }
    // Tied weights stay tied (stored once).
    if (const TensorView* decoder = converted.weights.find("mlm.decoder.weight"); decoder && !original.weights.find("cls.predictions.decoder.weight"))
      CHECK(decoder->data == converted.weights.find("embeddings.word_embeddings.weight")->data);
    auto check = check_converted_file(file);
    CHECK(check.bytes == fs::file_size(file));
    CHECK(check.dtype == "f32");
  }
}

TEST_CASE("convert: an f32 file holds the encoder's matrices packed, used in place with the same results") {
  bktest::TempDir dir;
  const auto folder = bktest::shared("fixtures/models/bert-uncased-mlm");
  const auto file = dir / "packed.bk";
  auto r = bktest::run_bertkit({"convert", folder.string(), file.string()});
  REQUIRE_MESSAGE(r.exit_code == 0, r.err);
  LoadedModel original = load_model(folder.string());
  LoadedModel converted = load_model(file.string());
  CHECK(original.weights.packed().empty());
  // Q|K|V, attention output, feed-forward in and out of every layer.
  CHECK(converted.weights.packed().size() == 4 * static_cast<std::size_t>(converted.config.num_layers));
  for (const auto& [packed_name, view] : converted.weights.packed()) {
    const std::string& name = packed_name;  // clang 14 cannot capture a structured binding in INFO's lambda
    INFO(name);
    CHECK(name.starts_with("encoder.layer."));
    CHECK(!view.layout.empty());
    CHECK(reinterpret_cast<std::uintptr_t>(view.data) % 64 == 0);
  }
  auto weights_a = std::make_shared<const Weights>(std::move(original.weights));
  auto weights_b = std::make_shared<const Weights>(std::move(converted.weights));
  Encoder from_folder(original.config, weights_a), from_file(converted.config, weights_b);
  const std::vector<std::int32_t> ids = {101, 7592, 1010, 2088, 999, 102};
  const std::vector<TokenSequence> batch = {{ids, {}}};
  EncoderOutput a, b;
  from_folder.forward(batch, a);
  from_file.forward(batch, b);
  CHECK(a.last() == b.last());  // the same packed bytes, the same kernels: identical numbers
  auto check = check_converted_file(file);
  CHECK(check.bytes == fs::file_size(file));

  // A reduced file converted back to f32 is packed from its widened values.
  const auto int8 = dir / "int8.bk", widened = dir / "widened.bk";
  REQUIRE(bktest::run_bertkit({"convert", "--dtype", "int8", folder.string(), int8.string()}).exit_code == 0);
  auto back = bktest::run_bertkit({"convert", int8.string(), widened.string()});
  REQUIRE_MESSAGE(back.exit_code == 0, back.err);
  CHECK(load_model(widened.string()).weights.packed().size() == 4 * static_cast<std::size_t>(original.config.num_layers));
}

TEST_CASE("convert: NomicBERT and ModernBERT files hold their layers packed, used in place with the same results") {
  bktest::TempDir dir;
  // NomicBERT: Wqkv, out_proj, fc11, fc12 and fc2 of every layer; ModernBERT: Wqkv, attn.Wo and mlp.Wo, and
  // Wi where its halves' packed bytes in a row are its packing (the layout's row blocks fit each half:
  // tests/unit/packed_linears_test.cpp; not this fixture's 96-row halves on AVX-512), in every layer or none.
  struct Case {
    const char* fixture;
    std::size_t per_layer;
  };
  for (const Case& c : {Case{"fixtures/models3/nomic-embed", 5}, Case{"fixtures/models3/modernbert-embed", 3}}) {
    for (const char* dtype : {"f32", "int8"}) {
      INFO(c.fixture << " " << dtype);
      const auto folder = bktest::shared(c.fixture);
      const auto file = dir / (std::string(dtype) + fs::path(c.fixture).filename().string() + ".bk");
      auto r = bktest::run_bertkit({"convert", "--dtype", dtype, folder.string(), file.string()});
      REQUIRE_MESSAGE(r.exit_code == 0, r.err);
      LoadedModel converted = load_model(file.string());
      // int8 keeps a layer plain where oneDNN names no s8 layout (Debian 13's) or computes int8 in f32.
      std::size_t wi = 0;
      for (const auto& [name, view] : converted.weights.packed()) wi += name.ends_with("mlp.Wi.weight") ? 1 : 0;
      const auto layers = static_cast<std::size_t>(converted.config.num_layers);
      CHECK((wi == 0 || wi == layers));
      if (std::string(dtype) == "f32" || !converted.weights.packed().empty())
        CHECK(converted.weights.packed().size() - wi == c.per_layer * layers);
      if (std::string(dtype) == "f32") bktest::check_same_weights(load_model(folder.string()).weights, converted.weights);
      CHECK(check_converted_file(file).bytes == fs::file_size(file));
      // The same numbers from the packed file as from the weights it was converted from.
      const auto text = std::string("A man is eating food.\nrotary positions, packed weights\n");
      // (int8: the folder quantised at load, as convert quantised it)
      auto a = bktest::run_bertkit({"embed", "-m", folder.string(), "--dtype", dtype, "--format", "f32"}, text);
      auto b = bktest::run_bertkit({"embed", "-m", file.string(), "--format", "f32"}, text);
      REQUIRE_MESSAGE(a.exit_code == 0, a.err);
      REQUIRE_MESSAGE(b.exit_code == 0, b.err);
      CHECK(a.out == b.out);
    }
  }
}

TEST_CASE("convert: f16, bf16 and int8 files hold reduced Linear weights (bf16: also word embeddings) within their rounding error") {
  LoadedModel original = load_model(bktest::shared("fixtures/models/electra-cls").string());
  bktest::TempDir dir;
  for (StoreType type : {StoreType::F16, StoreType::BF16, StoreType::Int8}) {
    INFO(store_type_name(type));
    auto file = dir / "model.bk";
    write_converted_file(original, file, type);
    LoadedModel m = load_model(file.string());
    CHECK(stored_dtype_name(m.stored_dtype) == store_type_name(type));
    CHECK(check_converted_file(file).dtype == store_type_name(type));
    for (const auto& name : original.weights.names()) {
      INFO(name);
      const TensorView* t = m.weights.find(name);
      REQUIRE(t);
      // Linear weights, and in bf16 also the word embedding table (a bf16 file is half the f32 one).
      bool linear = t->shape.size() == 2 && (!name.starts_with("embeddings.") ||
                                            (type == StoreType::BF16 && name == "embeddings.word_embeddings.weight"));
      DType want = !linear ? DType::F32 : type == StoreType::F16 ? DType::F16 : type == StoreType::BF16 ? DType::BF16 : DType::I8;
      CHECK(t->dtype == want);
      auto a = original.weights.values_f32(name);
      auto b = m.weights.values_f32(name);
      REQUIRE(a.size() == b.size());
      float max_abs = 0, max_err = 0;
      for (std::size_t i = 0; i < a.size(); ++i) {
        max_abs = std::max(max_abs, std::fabs(a[i]));
        max_err = std::max(max_err, std::fabs(a[i] - b[i]));
      }
      // f16: 2^-11 relative, bf16: 2^-8 relative, int8: half a step of the largest row (max/127/2).
      float bound = type == StoreType::F16 ? max_abs * 0x1p-11f : type == StoreType::BF16 ? max_abs * 0x1p-8f : max_abs / 254.0f * 1.0001f;
      CHECK(max_err <= bound);
      if (!linear) CHECK(max_err == 0);
    }
  }
}

TEST_CASE("convert: with_store_type f32 turns a reduced file's weights back into f32 for f32-only code") {
  LoadedModel original = load_model(bktest::shared("fixtures/models/bert-uncased-mlm").string());
  bktest::TempDir dir;
  write_converted_file(original, dir / "m.bk", StoreType::Int8);
  LoadedModel m = load_model((dir / "m.bk").string());
  Weights wide = with_store_type(m.weights, StoreType::F32);
  REQUIRE(wide.names() == original.weights.names());  // scales dropped
  for (const auto& name : wide.names()) {
    INFO(name);
    const TensorView* t = wide.find(name);
    CHECK(t->dtype == DType::F32);
    CHECK(wide.values_f32(name) == m.weights.values_f32(name));
  }
}

namespace {

// The later families (RoBERTa, CamemBERT, MPNet), each converted to `type`: loaded back with the same
// settings, MPNet's relative position bias still f32 (a table of biases, not a matrix), and the last
// hidden state of the fixture's first case within `bound` of the folder's.
void check_later_families_converted(StoreType type, float bound) {
  bktest::TempDir dir;
  std::size_t checked = 0;
  for (const char* name : {"roberta-mlm", "roberta-cls", "roberta-qa", "camembert-cls", "camembert-embed",
                           "mpnet-embed", "mpnet-mlm"}) {
    INFO(name);
    LoadedModel original = load_model(bktest::shared(std::string("fixtures/models2/") + name).string());
    const auto goldens = bktest::read_json(bktest::shared(std::string("fixtures/models2/") + name + "/goldens.json"));
    const auto ids = goldens.at("cases").at(0).at("input_ids").get<std::vector<std::int32_t>>();
    const std::vector<TokenSequence> batch = {{ids, {}}};
    EncoderOutput want, got;
    Encoder(original.config, std::make_shared<const Weights>(original.weights)).forward(batch, want);
    auto file = dir / (std::string(name) + ".bk");
    write_converted_file(original, file, type);
    LoadedModel converted = load_model(file.string());
    check_same_settings(original, converted);
    if (type == StoreType::F32) bktest::check_same_weights(original.weights, converted.weights);
    if (const TensorView* bias = converted.weights.find("encoder.relative_attention_bias.weight"))
      CHECK(bias->dtype == DType::F32);
    Encoder(converted.config, std::make_shared<const Weights>(std::move(converted.weights))).forward(batch, got);
    REQUIRE(got.last().size() == want.last().size());
    float worst = 0;
    for (std::size_t i = 0; i < got.last().size(); ++i)
      worst = std::max(worst, std::fabs(got.last()[i] - want.last()[i]));
    CHECK(worst <= bound);
    ++checked;
  }
  CHECK(checked == 7);
}

}  // namespace

TEST_CASE("convert: RoBERTa, CamemBERT and MPNet fixtures converted to f32 load back and run the same") {
  check_later_families_converted(StoreType::F32, 0.0f);
}

// LayerNorm outputs of order 1: bf16 and int8 weights move them by a few hundredths.
TEST_CASE("reduced types: RoBERTa, CamemBERT and MPNet fixtures in bf16 and int8 run near f32") {
  check_later_families_converted(StoreType::BF16, 0.25f);
  check_later_families_converted(StoreType::Int8, 0.25f);
}
