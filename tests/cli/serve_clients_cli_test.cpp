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
  REQUIRE(out["validation"].size() == 16);
  for (const auto& item : out["validation"].items()) {
    const std::string route = item.key();
    const json errors = item.value();
    INFO(route << ": " << errors.dump());
    CHECK(errors.empty());
  }
}

// curl, as a shell user calls each route: the status and the answer's first bytes.
TEST_CASE("serve: curl reaches every route") {
  const std::string mini = bktest::minilm();
  const std::string cross = bktest::fixture_path("bert-chinese-cross");
  const std::string cls = bktest::fixture_path("distilbert-uncased-cls");
  const std::string splade = bktest::shared("fixtures/models3/splade-bert").string();
  const std::string nli = bktest::shared("fixtures/models3/deberta-v3-nli").string();
  const std::string ner = bktest::shared("fixtures/models2/bert-cased-ner").string();
  const std::string qa = bktest::fixture_path("bert-uncased-qa");
  bktest::ServeChild server({"-m", mini, "-m", cross, "-m", cls, "-m", splade, "-m", nli, "-m", ner, "-m", qa, "--served-name",
                             "mini", "--served-name", "cross", "--served-name", "cls", "--served-name", "splade",
                             "--served-name", "nli", "--served-name", "ner", "--served-name", "qa"});
  struct Call {
    std::string method, target, body;
    int status;
    std::string starts;  // the answer's first bytes
  };
  const std::vector<Call> calls = {
      {"POST", "/v1/embeddings", R"({"model": "mini", "input": "hello"})", 200, R"({"object":"list","data":[{)"},
      {"POST", "/embed", R"({"inputs": ["hello", "world"]})", 200, "[["},
      {"POST", "/embed_sparse?model=splade", R"({"inputs": "hello"})", 200, R"([[{"index":)"},
      {"POST", "/embed_all", R"({"inputs": "hello"})", 200, "[[["},
      {"POST", "/rerank?model=cross", R"({"query": "q", "texts": ["a", "b"]})", 200, R"([{"index":)"},
      {"POST", "/v1/rerank", R"({"model": "cross", "query": "q", "documents": ["a", "b"]})", 200, R"({"model":"cross","results":[{"index":)"},
      {"POST", "/predict?model=cls", R"({"inputs": "great film"})", 200, R"([{"label":)"},
      {"POST", "/similarity", R"({"inputs": {"source_sentence": "a", "sentences": ["b", "c"]}})", 200, "["},
      {"POST", "/zero-shot?model=nli", R"({"inputs": "a goal in the last minute", "labels": ["sports", "cooking"]})", 200, R"({"labels":[)"},
      {"POST", "/ner?model=ner", R"({"inputs": "John lives in Paris"})", 200, "["},
      {"POST", "/qa?model=qa", R"({"inputs": {"question": "Where?", "context": "In Paris."}})", 200, R"([{"answer":)"},
      {"POST", "/tokenize", R"({"inputs": "hello"})", 200, R"([[{"id":101,)"},
      {"POST", "/decode", R"({"ids": [101, 7592, 102]})", 200, R"(["hello"])"},
      {"GET", "/info?model=cls", "", 200, R"({"model_id":)"},
      {"GET", "/v1/models", "", 200, R"({"object":"list","data":[{"id":"mini")"},
      {"GET", "/health", "", 200, ""},
      {"HEAD", "/health", "", 200, ""},
      {"GET", "/metrics", "", 200, "# HELP bertkit_requests_total"},
      {"POST", "/embed", "not json", 400, R"({"error":"the body is not valid JSON)"},
      {"GET", "/embed", "", 405, R"({"error":)"},
  };
  bktest::TempDir tmp;
  for (const Call& c : calls) {
    CAPTURE(c.method + " " + c.target);
    bktest::write_file(tmp / "body", c.body);
    const std::string command = "curl -s -o '" + (tmp / "out").string() + "' -w '%{http_code}' -X " + c.method +
                                (c.method == "HEAD" ? " -I" : "") + " -H 'Content-Type: application/json'" +
                                (c.body.empty() ? "" : " --data-binary @'" + (tmp / "body").string() + "'") +
                                " 'http://127.0.0.1:" + std::to_string(server.port()) + c.target + "' > '" +
                                (tmp / "status").string() + "'";
    REQUIRE(std::system(command.c_str()) == 0);
    CHECK(bktest::read_file(tmp / "status") == std::to_string(c.status));
    if (c.method != "HEAD") CHECK(bktest::read_file(tmp / "out").rfind(c.starts, 0) == 0);
  }
}
