// config.json of every fixture against the `spec` and `model_class` that built it.
#include "support.h"

#include "core/model/config.h"

#include <doctest/doctest.h>

using namespace bertkit::core;

namespace {

// The fixture's config.json, checked against the architecture and sizes of the spec that built it.
ModelConfig config_of_spec(const std::filesystem::path& folder, const nlohmann::json& goldens) {
  const auto& spec = goldens["spec"];
  ModelConfig c = read_model_config(folder / "config.json");
  CHECK(c.architecture == goldens["model_class"].get<std::string>());
  CHECK(c.hidden_size == spec["hidden"].get<int>());
  CHECK(c.num_layers == spec["layers"].get<int>());
  CHECK(c.num_heads == spec["heads"].get<int>());
  CHECK(c.intermediate_size == spec["inter"].get<int>());
  CHECK(c.max_position_embeddings == spec["max_pos"].get<int>());
  return c;
}

}  // namespace

TEST_CASE("config: every fixture's config.json gives the sizes and settings of its spec") {
  int checked = 0;
  for (const auto& e : std::filesystem::directory_iterator(bktest::shared("fixtures/models"))) {
    if (!e.is_directory()) continue;
    INFO(e.path());
    const auto goldens = bktest::read_json(e.path() / "goldens.json");
    const auto& spec = goldens["spec"];
    const ModelConfig c = config_of_spec(e.path(), goldens);
    CHECK(activation_name(c.hidden_act) == spec["act"].get<std::string>());
    CHECK(c.embedding_size == spec.value("emb", spec["hidden"].get<int>()));
    CHECK(c.layer_norm_eps == 1e-12);
    if (spec.contains("labels")) {
      CHECK(c.id2label == spec["labels"].get<std::vector<std::string>>());
      CHECK(c.num_labels == static_cast<int>(c.id2label.size()));
    } else {
      CHECK(c.id2label.empty());
    }
    CHECK(problem_type_name(c.problem_type) == spec.value("problem_type", std::string("auto")));
    bool distil = c.architecture.rfind("DistilBert", 0) == 0;
    CHECK(c.type_vocab_size == (distil ? 0 : 2));
    CHECK(family_name(c.family) == (distil ? "distilbert" : c.architecture.rfind("Electra", 0) == 0 ? "electra" : "bert"));
    ++checked;
  }
  CHECK(checked >= 12);
}

// The later families' fixtures (models2): RoBERTa's relatives and MPNet, with the values of the real
// models' config.json (layer_norm_eps 1e-5, one token type or none, positions after padding id 1).
TEST_CASE("config: every later fixture of RoBERTa, CamemBERT and MPNet gives the sizes and settings of its spec") {
  int checked = 0;
  for (const auto& e : std::filesystem::directory_iterator(bktest::shared("fixtures/models2"))) {
    const std::string name = e.path().filename().string();
    const bool later_family = name.starts_with("roberta") || name.starts_with("camembert") || name.starts_with("mpnet");
    if (!e.is_directory() || !later_family) continue;
    INFO(name);
    const auto goldens = bktest::read_json(e.path() / "goldens.json");
    const auto& spec = goldens["spec"];
    const ModelConfig c = config_of_spec(e.path(), goldens);
    CHECK(c.layer_norm_eps == 1e-5);
    CHECK(c.pad_token_id == 1);
    CHECK(c.position_offset == 2);
    const bool mpnet = name.starts_with("mpnet");
    CHECK(family_name(c.family) == (mpnet ? "mpnet" : name.starts_with("camembert") ? "camembert" : "roberta"));
    CHECK(c.type_vocab_size == (mpnet ? 0 : 1));
    CHECK(c.relative_attention_buckets == (mpnet ? 32 : 0));
    if (spec.contains("labels")) CHECK(c.id2label == spec["labels"].get<std::vector<std::string>>());
    ++checked;
  }
  CHECK(checked == 8);
}
