// `bertkit download` and `-m ORG/NAME` of static embedding models against the local Hub
// (tests/tools/hub_stand_in.py): the files each layout needs (modules.json, config_sentence_transformers.json
// and 0_StaticEmbedding/*; model2vec's config.json, model.safetensors and tokenizer.json), nothing else,
// and the model runs from the snapshot.
#include "cli/hub_stand_in.h"
#include "cli/task_cli_helpers.h"

#include <doctest/doctest.h>

#include <cmath>

namespace {

void check_first_golden(const std::string& model, const std::string& fixture) {
  const nlohmann::json first = bktest::models3_goldens(fixture).at("embeddings").at(0);
  const auto out = bktest::run_jsonl({"embed", "-m", model, first.at("text").get<std::string>()});
  const auto got = out.at(0).at("embedding").get<std::vector<double>>();
  const auto want = first.at("embedding").get<std::vector<double>>();
  REQUIRE(got.size() == want.size());
  for (std::size_t i = 0; i < got.size(); ++i) CHECK(std::abs(got[i] - want[i]) <= 1e-5);
}

}  // namespace

TEST_CASE("download: a static embedding model's files, in either layout, and it runs from the cache") {
  bktest::HubStandIn hub({"test-org/static=" + bktest::models3_path("static-tiny"),
                          "test-org/m2v=" + bktest::models3_path("static-tiny-m2v")});
  bktest::HubEnvironment env(hub.endpoint());
  auto r = bktest::run_bertkit({"-q", "download", "test-org/static"});
  INFO(r.err);
  REQUIRE(r.exit_code == 0);
  CHECK(bktest::files_under(bktest::only_snapshot(env, "models--test-org--static")) ==
        std::set<std::string>{"0_StaticEmbedding/model.safetensors",
                              "0_StaticEmbedding/tokenizer.json", "config_sentence_transformers.json", "modules.json"});
  check_first_golden("test-org/static", "static-tiny");
  // -m of a model not in the cache downloads it first.
  check_first_golden("test-org/m2v", "static-tiny-m2v");
  CHECK(bktest::files_under(bktest::only_snapshot(env, "models--test-org--m2v")) ==
        std::set<std::string>{"config.json", "model.safetensors", "modules.json", "tokenizer.json"});
}
