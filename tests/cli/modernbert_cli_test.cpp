// ModernBERT end to end through the binary (fixtures/models3/modernbert-*): transformers' fill-mask,
// text-classification and token-classification pipelines (all five aggregations) and
// sentence-transformers' encode (with and without a prompt), from the folder and from its f32 file;
// bf16 and int8 by convert --verify's cosine; a scaled rotary config refused by name.
#include "cli/task_cli_helpers.h"

#include <algorithm>
#include <cmath>

using nlohmann::json;

namespace {

std::string models3(const std::string& name) { return bktest::models3_path(name); }
using bktest::models3_goldens;

void check_modernbert_fill_mask(const std::string& model) {
  const auto fills = bktest::pipeline_records(models3_goldens("modernbert-mlm"), "fill-mask");
  REQUIRE(fills.size() == 2);
  for (const json& p : fills) {
    INFO(p.at("input"));
    const auto out = bktest::run_jsonl({"fill-mask", "-m", model, "--top-k", "5", p.at("input").get<std::string>()});
    REQUIRE(out.size() == 1);
    bktest::check_predictions(out[0].at("predictions"), p.at("output"));
  }
}

void check_modernbert_embeddings(const std::string& model) {
  const json g = models3_goldens("modernbert-embed");
  const auto texts = g.at("texts").get<std::vector<std::string>>();
  const auto check = [](const std::vector<json>& out, const json& want) {
    REQUIRE(out.size() == want.size());
    for (std::size_t i = 0; i < out.size(); ++i) {
      INFO("text " << i);
      const auto got = out[i].at("embedding").get<std::vector<double>>();
      const auto expected = want[i].get<std::vector<double>>();
      REQUIRE(got.size() == expected.size());
      double worst = 0;
      for (std::size_t j = 0; j < got.size(); ++j) worst = std::max(worst, std::abs(got[j] - expected[j]));
      CHECK(worst <= 1e-5);
    }
  };
  check(bktest::run_jsonl(bktest::with({"embed", "-m", model}, texts)), g.at("encode"));
  const std::vector<std::string> first(texts.begin(), texts.begin() + 3);
  check(bktest::run_jsonl(bktest::with({"embed", "-m", model, "--prompt", "query"}, first)), g.at("encode_query_prompt"));
}

// The fixture converted to an f32 file in `dir`.
std::string converted(const bktest::TempDir& dir, const std::string& name) { return bktest::converted_f32(dir, models3(name), name); }

}  // namespace

TEST_CASE("modernbert fill-mask: transformers' pipeline, from the folder and from its f32 file") {
  check_modernbert_fill_mask(models3("modernbert-mlm"));
  const bktest::TempDir dir;
  check_modernbert_fill_mask(converted(dir, "modernbert-mlm"));
}

TEST_CASE("modernbert classify: the text-classification pipeline's every label (mean pooling)") {
  const auto classes = bktest::pipeline_records(models3_goldens("modernbert-cls"), "text-classification");
  REQUIRE(!classes.empty());
  for (const json& p : classes) {
    INFO(p.at("input"));
    const auto out = bktest::run_jsonl({"classify", "-m", models3("modernbert-cls"), "--top-k", "all", p.at("input").get<std::string>()});
    REQUIRE(out.size() == 1);
    const json& got = out[0].at("scores");
    const json& want = p.at("output");
    REQUIRE(got.size() == want.size());
    for (std::size_t k = 0; k < want.size(); ++k) {
      CHECK(got[k].at("label") == want[k].at("label"));
      CHECK(bktest::near_score(got[k].at("score"), want[k].at("score")));
    }
  }
}

TEST_CASE("modernbert ner: the token-classification pipeline with each of the five aggregations") {
  const auto tagged = bktest::pipeline_records(models3_goldens("modernbert-ner"), "token-classification");
  REQUIRE(tagged.size() == 35);
  for (const json& p : tagged) {
    const std::string aggregation = p.at("call").at("aggregation_strategy").get<std::string>();
    INFO(aggregation << " " << p.at("input"));
    const auto out = bktest::run_jsonl(
        {"ner", "-m", models3("modernbert-ner"), "--aggregation", aggregation, p.at("input").get<std::string>()});
    REQUIRE(out.size() == 1);
    bktest::check_entities(out[0].at("entities"), p.at("output"));  // no null in these (fast tokenizer)
  }
}

TEST_CASE("modernbert embed: sentence-transformers 6's encode, with and without the query prompt") {
  check_modernbert_embeddings(models3("modernbert-embed"));
  const bktest::TempDir dir;
  check_modernbert_embeddings(converted(dir, "modernbert-embed"));
}

TEST_CASE("modernbert convert --verify: bf16 and int8 keep the embeddings' direction") {
  for (const char* dtype : {"bf16", "int8"}) bktest::check_convert_verify(models3("modernbert-cls"), dtype);
}

TEST_CASE("modernbert: a scaled rotary config (rope_type other than default) is refused, naming the field") {
  const bktest::TempDir dir;
  const auto to = dir / "scaled";
  std::filesystem::copy(models3("modernbert-mlm"), to, std::filesystem::copy_options::recursive);
  json config = bktest::read_json(to / "config.json");
  config["rope_parameters"]["full_attention"]["rope_type"] = "linear";
  std::filesystem::permissions(to / "config.json", std::filesystem::perms::owner_write, std::filesystem::perm_options::add);
  bktest::write_file(to / "config.json", config.dump());
  const auto r = bktest::run_bertkit({"fill-mask", "-m", to.string(), "Paris is the [MASK] of France."});
  CHECK(r.exit_code == 3);
  CHECK(r.err.find("config.json: unsupported rope_parameters.full_attention.rope_type \"linear\" (only \"default\")") !=
        std::string::npos);
  CHECK(r.out.empty());
}

TEST_CASE("modernbert info: each kind of layer with its window, rotary base and layers, from layer_types") {
  auto r = bktest::run_bertkit({"info", "--json", models3("modernbert-mlm")});
  REQUIRE_MESSAGE(r.exit_code == 0, r.err);
  const json info = json::parse(r.out);
  const json config = bktest::read_json(bktest::shared("fixtures/models3/modernbert-mlm/config.json"));
  std::vector<int> full, sliding;
  for (std::size_t l = 0; l < config.at("layer_types").size(); ++l)
    (config.at("layer_types")[l] == "full_attention" ? full : sliding).push_back(static_cast<int>(l));
  REQUIRE_FALSE(sliding.empty());
  CHECK(info.at("attention.global").at("layers") == json(full));
  CHECK(info.at("attention.global").at("rope_theta") == config.at("rope_parameters").at("full_attention").at("rope_theta"));
  // transformers' window: local_attention / 2 keys each side.
  const std::string local = "attention.window_" + std::to_string(config.at("local_attention").get<int>() / 2);
  CHECK(info.at(local).at("layers") == json(sliding));
  CHECK(info.at(local).at("rope_theta") == config.at("rope_parameters").at("sliding_attention").at("rope_theta"));
  CHECK(info.at("rotary").at("interleaved") == false);
}
