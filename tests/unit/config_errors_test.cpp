// config.json values bertkit cannot run are refused with a message naming the file and the value.
#include "support.h"
#include "unit/checkpoint_builders.h"
#include "unit/expect_bad_input.h"

#include "core/error.h"
#include "core/model/config.h"
#include "core/model/family_spec.h"

#include <doctest/doctest.h>

using namespace bertkit;
using namespace bertkit::core;

namespace {

nlohmann::json bert_config() {
  return {{"architectures", {"BertModel"}}, {"model_type", "bert"}, {"vocab_size", 10}, {"hidden_size", 8},
          {"num_hidden_layers", 1}, {"num_attention_heads", 2}, {"intermediate_size", 16}};
}

void expect_config_refused(const std::string& text, const std::string& what) {
  bktest::TempDir dir;
  auto path = dir / "config.json";
  bktest::write_file(path, text);
  bktest::expect_bad_input([&] { read_model_config(path); }, path, what);
}

std::string with(const char* key, nlohmann::json value) {
  auto c = bert_config();
  c[key] = std::move(value);
  return c.dump();
}

}  // namespace

TEST_CASE("config: unsupported values are refused by name") {
  expect_config_refused("{\"model_type\": ", "invalid JSON");
  // Where the text goes wrong, in the user's terms: not nlohmann's "[json.exception.parse_error.101]".
  expect_config_refused("{\"a\": x}", ": invalid JSON at line 1, column 7: syntax error while parsing value");
  expect_config_refused("{\"a\": 1e999}", ": invalid JSON: number overflow parsing '1e999'");
  expect_config_refused("{\"a\": " + std::string(100000, '[') + std::string(100000, ']') + "}",
                        "nested deeper than 64 levels");
  expect_config_refused(with("model_type", "deberta"), "unsupported model_type \"deberta\"");  // DeBERTa v1
  expect_config_refused(with("hidden_act", "quick_gelu"), "\"quick_gelu\"");
  expect_config_refused(with("position_embedding_type", "relative_key"), "\"relative_key\"");
  expect_config_refused(with("architectures", {"BertForMultipleChoice"}), "\"BertForMultipleChoice\"");
  expect_config_refused(with("architectures", {"DistilBertModel"}), "\"DistilBertModel\"");
  expect_config_refused(with("hidden_size", 7), "not a multiple");
  expect_config_refused(with("hidden_size", "8"), "must be an integer");
  expect_config_refused(with("vocab_size", 1LL << 40), "out of range");
  expect_config_refused(with("problem_type", "ranking"), "\"ranking\"");
  auto labels = bert_config();
  labels["architectures"] = {"BertForSequenceClassification"};
  labels["id2label"] = {{"0", "a"}, {"2", "b"}};
  expect_config_refused(labels.dump(), "id2label key \"2\"");
  auto missing = bert_config();
  missing.erase("num_hidden_layers");
  expect_config_refused(missing.dump(), "missing field \"num_hidden_layers\"");
}

TEST_CASE("config: defaults and the three families") {
  bktest::TempDir dir;
  auto c = bert_config();
  c["architectures"] = {"BertForSequenceClassification"};
  bktest::write_file(dir / "config.json", c.dump());
  ModelConfig bert = read_model_config(dir / "config.json");
  CHECK(bert.head == HeadKind::SequenceClassification);
  CHECK(bert.id2label == std::vector<std::string>{"LABEL_0", "LABEL_1"});  // transformers' default
  CHECK(bert.max_position_embeddings == 512);
  CHECK(bert.type_vocab_size == 2);
  CHECK(bert.hidden_act == Activation::Gelu);

  nlohmann::json electra = bert_config();
  electra["model_type"] = "electra";
  electra["architectures"] = {"ElectraForPreTraining"};
  electra["hidden_act"] = "gelu_pytorch_tanh";
  bktest::write_file(dir / "config.json", electra.dump());
  ModelConfig e = read_model_config(dir / "config.json");
  CHECK(e.family == find_family("electra"));
  CHECK(e.head == HeadKind::PreTraining);
  CHECK(e.embedding_size == 128);  // ElectraConfig's default
  CHECK(e.hidden_act == Activation::GeluTanh);

  nlohmann::json distil = {{"model_type", "distilbert"}, {"vocab_size", 10}, {"dim", 8}, {"n_layers", 1},
                           {"n_heads", 2}, {"hidden_dim", 16}, {"activation", "relu"},
                           {"sinusoidal_pos_embds", true}};
  bktest::write_file(dir / "config.json", distil.dump());
  ModelConfig d = read_model_config(dir / "config.json");
  CHECK(d.architecture == "DistilBertModel");
  CHECK(d.type_vocab_size == 0);
  CHECK(d.hidden_act == Activation::Relu);
}

TEST_CASE("config: DeBERTa-v2 settings bertkit does not compute are refused by name") {
  auto deberta = [](const char* key, nlohmann::json value) {
    nlohmann::json c = {{"architectures", {"DebertaV2Model"}}, {"model_type", "deberta-v2"}, {"vocab_size", 10},
                        {"hidden_size", 8}, {"num_hidden_layers", 1}, {"num_attention_heads", 2},
                        {"intermediate_size", 16}, {"relative_attention", true}, {"pos_att_type", "p2c|c2p"}};
    c[key] = std::move(value);
    return c.dump();
  };
  CHECK(parse_model_config(deberta("position_buckets", 16), "config.json").disentangled.c2p);
  expect_config_refused(deberta("conv_kernel_size", 3), "conv_kernel_size");
  expect_config_refused(deberta("pos_att_type", "p2c|p2p"), "unsupported pos_att_type \"p2p\"");
  expect_config_refused(deberta("pos_att_type", 3), "field \"pos_att_type\" must be a list");
  expect_config_refused(deberta("pooler_hidden_size", 16), "pooler_hidden_size 16");
  expect_config_refused(deberta("attention_head_size", 2), "attention_head_size 2");
  expect_config_refused(deberta("pooler_hidden_act", "quick_gelu"), "\"quick_gelu\"");
}
