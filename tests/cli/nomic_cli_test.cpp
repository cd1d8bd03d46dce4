// NomicBERT end to end: the sentence-transformers folder laid out as nomic-embed-text-v1.5's (mean
// pooling, no Normalize) against sentence-transformers' encode, with its query prompt by name and as a
// typed prefix, converted to one file (same bytes), and the classifier through classify.
#include "cli/task_cli_helpers.h"

#include <doctest/doctest.h>

#include <cmath>

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
