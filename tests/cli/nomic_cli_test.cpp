// NomicBERT end to end: the sentence-transformers folder laid out as nomic-embed-text-v1.5's (mean
// pooling, no Normalize) against sentence-transformers' encode, with its query prompt by name and as a
// typed prefix, converted to one file (same bytes), and the classifier through classify.
#include "cli/hub_stand_in.h"
#include "cli/task_cli_helpers.h"

#include <doctest/doctest.h>

#include <cmath>
#include <filesystem>
#include <set>

using bktest::run_bertkit;
using nlohmann::json;

namespace {

const std::string kEmbed = bktest::shared("fixtures/models3/nomic-embed").string();

std::string jsonl_of(const json& texts, const std::string& prefix = "") {
  std::string lines;
  for (const json& t : texts) lines += json{{"text", prefix + t.get<std::string>()}}.dump() + "\n";
  return lines;
}

void check_embeddings(const std::vector<json>& rows, const json& expected, const json& truncated) {
  REQUIRE(rows.size() == expected.size());
  for (std::size_t i = 0; i < rows.size(); ++i) {
    INFO("text " << i);
    const json& got = rows[i].at("embedding");
    REQUIRE(got.size() == expected[i].size());
    double worst = 0;
    for (std::size_t k = 0; k < got.size(); ++k) worst = std::max(worst, std::abs(got[k].get<double>() - expected[i][k].get<double>()));
    CHECK(worst <= 1e-5);
    CHECK(rows[i].contains("truncated") == truncated[i].get<bool>());
  }
}

}  // namespace

TEST_CASE("nomic_bert: embed of nomic-embed-text's folder layout, with the query prompt by name or typed (issue 33)") {
  const json g = bktest::read_json(bktest::shared("fixtures/models3/nomic-embed/goldens.json"));
  check_embeddings(bktest::run_jsonl({"embed", "-m", kEmbed, "--jsonl"}, jsonl_of(g.at("texts"))), g.at("encode"),
                   g.at("truncated"));
  check_embeddings(bktest::run_jsonl({"embed", "-m", kEmbed, "--jsonl", "--prompt", "query"}, jsonl_of(g.at("texts"))),
                   g.at("encode_query_prompt"), g.at("truncated_query_prompt"));
  // v1.5's own folder names no prompts: its users type the prefix.
  check_embeddings(bktest::run_jsonl({"embed", "-m", kEmbed, "--jsonl", "--prefix", "search_query: "}, jsonl_of(g.at("texts"))),
                   g.at("encode_query_prompt"), g.at("truncated_query_prompt"));
}

TEST_CASE("nomic_bert: a converted file gives the folder's bytes, batch 1 equals batch 8 (issue 33)") {
  const json g = bktest::read_json(bktest::shared("fixtures/models3/nomic-embed/goldens.json"));
  bktest::TempDir dir;
  const std::string converted = (dir / "nomic.bk").string();
  auto convert = run_bertkit({"convert", kEmbed, converted});
  INFO(convert.err);
  REQUIRE(convert.exit_code == 0);
  const std::string input = jsonl_of(g.at("texts"));
  auto folder = run_bertkit({"embed", "-m", kEmbed, "--jsonl", "--batch-size", "8"}, input);
  auto file = run_bertkit({"embed", "-m", converted, "--jsonl", "--batch-size", "1"}, input);
  REQUIRE(folder.exit_code == 0);
  REQUIRE(file.exit_code == 0);
  CHECK(folder.out == file.out);
}

TEST_CASE("nomic_bert: classify with the remote-code and the native classifier (issue 33)") {
  for (const char* name : {"nomic-cls", "nomic-cls-native"}) {
    INFO(name);
    const std::string model = bktest::shared(std::string("fixtures/models3/") + name).string();
    const json g = bktest::read_json(bktest::shared(std::string("fixtures/models3/") + name + "/goldens.json"));
    for (const json& c : g.at("cases")) {
      std::vector<std::string> args{"classify", "-m", model, "--function", "none", "--top-k", "all"};
      if (c.at("text_pair").is_null()) args.push_back(c.at("text"));
      else args.insert(args.end(), {"--pairs", c.at("text").get<std::string>() + "\t" + c.at("text_pair").get<std::string>()});
      const auto rows = bktest::run_jsonl(args);
      REQUIRE(rows.size() == 1);
      for (const json& s : rows[0].at("scores")) {
        const std::size_t id = s.at("label") == "negative" ? 0 : 1;
        CHECK(std::abs(s.at("score").get<double>() - c.at("logits")[id].get<double>()) <= bktest::kTolerance);
      }
    }
  }
}

TEST_CASE("nomic_bert: similarity is the cosine of sentence-transformers' embeddings (issue 33)") {
  const json g = bktest::read_json(bktest::shared("fixtures/models3/nomic-embed/goldens.json"));
  const json& texts = g.at("texts");
  REQUIRE(texts.size() >= 2);
  const auto rows = bktest::run_jsonl({"similarity", "-m", kEmbed, texts[0], texts[1]});
  REQUIRE(rows.size() == 1);
  const json &a = g.at("encode")[0], &b = g.at("encode")[1];
  double dot = 0, aa = 0, bb = 0;
  for (std::size_t k = 0; k < a.size(); ++k) {
    dot += a[k].get<double>() * b[k].get<double>();
    aa += a[k].get<double>() * a[k].get<double>();
    bb += b[k].get<double>() * b[k].get<double>();
  }
  CHECK(std::abs(rows[0].at("score").get<double>() - dot / std::sqrt(aa * bb)) <= 1e-5);
}

TEST_CASE("nomic_bert: info shows the rotary settings and which layers attend how") {
  auto r = run_bertkit({"info", "--json", bktest::shared("fixtures/models3/nomic-base").string()});
  REQUIRE_MESSAGE(r.exit_code == 0, r.err);
  const json info = json::parse(r.out);
  CHECK(info.at("model_type") == "nomic_bert");
  CHECK(info.at("rotary").at("fraction") == 1.0);
  CHECK(info.at("rotary").at("interleaved") == false);
  const json config = bktest::read_json(bktest::shared("fixtures/models3/nomic-base/config.json"));
  CHECK(info.at("attention.global").at("rope_theta") == config.at("rotary_emb_base"));
  CHECK(info.at("attention.global").at("layers").size() == config.at("n_layer"));
}

TEST_CASE("nomic_bert: download fetches the folder's files and never the remote code (issue 33)") {
  // The Hub's v1.5 folder names remote code in config.json's auto_map; a repository may hold the .py
  // files too. bertkit neither runs nor fetches them.
  bktest::TempDir repo;
  std::filesystem::copy(kEmbed, repo.path(), std::filesystem::copy_options::recursive);
  bktest::write_file(repo / "modeling_hf_nomic_bert.py", "raise SystemExit('never run')\n");
  bktest::HubStandIn hub({"test-org/nomic=" + repo.path().string()});
  bktest::HubEnvironment env(hub.endpoint());
  auto r = run_bertkit({"download", "test-org/nomic"});
  INFO(r.err);
  REQUIRE(r.exit_code == 0);
  const std::set<std::string> files = bktest::files_under(bktest::trimmed(r.out));
  CHECK_FALSE(files.contains("modeling_hf_nomic_bert.py"));
  CHECK_FALSE(files.contains("goldens.json"));
  for (const char* needed : {"config.json", "model.safetensors", "tokenizer.json", "modules.json", "1_Pooling/config.json"})
    CHECK(files.contains(needed));
  const json g = bktest::read_json(bktest::shared("fixtures/models3/nomic-embed/goldens.json"));
  check_embeddings(bktest::run_jsonl({"embed", "-m", "test-org/nomic", "--jsonl"}, jsonl_of(g.at("texts"))), g.at("encode"),
                   g.at("truncated"));
}

TEST_CASE("nomic_bert: --truncate-dim keeps the first dimensions as sentence-transformers' truncate_dim does (Matryoshka)") {
  const json g = bktest::read_json(bktest::shared("fixtures/models3/nomic-embed/goldens.json"));
  const auto rows = bktest::run_jsonl({"embed", "-m", kEmbed, "--jsonl", "--truncate-dim", "16"}, jsonl_of(g.at("texts")));
  json first16 = json::array();
  for (const json& e : g.at("encode")) first16.push_back(json(std::vector<double>(e.begin(), e.begin() + 16)));
  check_embeddings(rows, first16, g.at("truncated"));  // v1.5 has no Normalize module: nothing to redo
}
