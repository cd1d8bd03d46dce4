// Real clients of `bertkit serve` (tests/node, installed by tests/setup.sh with npm ci): the official
// OpenAI Node SDK's embeddings.create gets bertkit embed's vectors (through base64, as the SDK asks by
// default, and as floats), and every text-embeddings-inference route's answer validates with ajv
// against the shapes TEI's OpenAPI document gives.
#include "cli/serve_child.h"
#include "cli/task_cli_helpers.h"

#include <doctest/doctest.h>

#include <cstdio>
#include <filesystem>

using nlohmann::json;

TEST_CASE("serve: the OpenAI Node SDK gets embed's vectors, and TEI's routes answer in TEI's shapes (ajv)") {
  const std::filesystem::path node_dir = std::filesystem::path(BERTKIT_SOURCE_DIR) / "tests" / "node";
  INFO("tests/node/node_modules is missing: run tests/setup.sh (it runs npm ci there)");
  REQUIRE(std::filesystem::exists(node_dir / "node_modules" / "openai"));
  REQUIRE(std::filesystem::exists(node_dir / "node_modules" / "ajv"));
  const std::string mini = bktest::minilm();
  const std::string cross = bktest::fixture_path("bert-chinese-cross");
  const std::string cls = bktest::fixture_path("distilbert-uncased-cls");
  bktest::ServeChild server({"-m", mini, "-m", cross, "-m", cls, "--served-name", "mini", "--served-name", "cross",
                             "--served-name", "cls", "--api-key", "sk-test"});
  const std::vector<std::string> texts = {"Hello, world!", "naïve café — 東京", "The cat sat on the mat."};
  bktest::TempDir tmp;
  const std::string out_path = (tmp / "out.json").string();
  const std::string command = "timeout 120 node '" + (node_dir / "serve_clients.mjs").string() + "' " + std::to_string(server.port()) +
                        " sk-test mini cross cls '" + json(texts).dump() + "' > '" + out_path + "' 2> '" +
                        (tmp / "err.txt").string() + "'";
  const int rc = std::system(command.c_str());  // bounded: timeout ends a client that hangs
  INFO("node stderr: " << bktest::read_file(tmp / "err.txt"));
  REQUIRE(rc == 0);
  const json out = json::parse(bktest::read_file(out_path));

  std::string lines;
  for (const auto& t : texts) lines += json({{"text", t}}).dump() + "\n";
  const auto cli = bktest::run_jsonl({"embed", "-m", mini, "--jsonl"}, lines);
  REQUIRE(cli.size() == texts.size());
  REQUIRE(out["sdk_base64"].size() == texts.size());
  for (std::size_t i = 0; i < texts.size(); ++i) {
    const auto want = cli[i]["embedding"].get<std::vector<float>>();
    CHECK(out["sdk_base64"][i].get<std::vector<float>>() == want);  // float32 through base64: exact
    CHECK(out["sdk_float"][i].get<std::vector<float>>() == want);
  }
  CHECK(out["sdk_usage"]["prompt_tokens"].get<int>() > 0);
  CHECK(out["sdk_error"]["status"] == 404);
  CHECK(out["sdk_error"]["name"] == "NotFoundError");
  CHECK(out["sdk_error"]["param"] == "model");
  REQUIRE(out["validation"].size() == 15);
  for (const auto& item : out["validation"].items()) {
    const std::string route = item.key();
    const json errors = item.value();
    INFO(route << ": " << errors.dump());
    CHECK(errors.empty());
  }
}
