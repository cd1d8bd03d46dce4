// `bertkit serve` end to end on 127.0.0.1: every route's answer holds what the CLI writes for the same
// inputs (the numbers byte for byte: the server copies the pipeline's lines), in the shape of the API
// the route belongs to; bad requests get their status and a message naming the field; concurrent
// requests are merged into batches and still get the CLI's numbers; a full queue answers 429, a request
// waiting too long 503; SIGTERM lets the requests in flight finish and exits 0.
#include "cli/serve_child.h"
#include "cli/task_cli_helpers.h"

#include <doctest/doctest.h>

#include <algorithm>
#include <atomic>
#include <cstring>
#include <future>
#include <functional>
#include <regex>

using bktest::http_request;
using bktest::HttpReply;
using bktest::run_bertkit;
using bktest::ServeChild;
using nlohmann::json;

namespace {

const std::string kServeCross = bktest::fixture_path("bert-chinese-cross");
const std::string kServeClassifier = bktest::fixture_path("distilbert-uncased-cls");
const std::string kServeSplade = bktest::shared("fixtures/models3/splade-bert").string();
const std::string kServeNli = bktest::shared("fixtures/models3/deberta-v3-nli").string();

const std::vector<std::string> kServeTexts = {"Hello, world!", "The cat sat on the mat.", "naïve café — 東京",
                                              "", "  padded text  ", "A longer sentence with several words in it."};

// Every JSON value that follows `"key":` in `text`, as written (a list or a number).
std::vector<std::string> serve_values(const std::string& text, const std::string& key) {
  std::vector<std::string> out;
  const std::string marker = "\"" + key + "\":";
  for (std::size_t at = text.find(marker); at != std::string::npos; at = text.find(marker, at + 1)) {
    std::size_t begin = at + marker.size(), end = begin;
    int depth = 0;
    for (; end < text.size(); ++end) {
      const char c = text[end];
      if (c == '[' || c == '{') ++depth;
      else if (c == ']' || c == '}') {
        if (depth == 0) break;
        if (--depth == 0) {
          ++end;
          break;
        }
      } else if (c == ',' && depth == 0) break;
    }
    out.push_back(text.substr(begin, end - begin));
  }
  return out;
}

// The values of `key` in the CLI's output lines for `args`.
std::vector<std::string> serve_cli_values(const std::vector<std::string>& args, const std::string& input, const std::string& key) {
  std::vector<std::string> with_input = args;
  with_input.push_back("--jsonl");  // the records below are JSON lines
  const bktest::RunResult r = run_bertkit(with_input, input);
  INFO(r.err);
  REQUIRE(r.exit_code == 0);
  return serve_values(r.out, key);
}

std::string serve_lines(const std::vector<std::string>& texts) {
  std::string lines;
  for (const auto& t : texts) lines += json({{"text", t}}).dump() + "\n";
  return lines;
}

std::vector<float> serve_base64_floats(const std::string& b64) {
  auto digit = [](char c) -> int {
    if (c >= 'A' && c <= 'Z') return c - 'A';
    if (c >= 'a' && c <= 'z') return c - 'a' + 26;
    if (c >= '0' && c <= '9') return c - '0' + 52;
    return c == '+' ? 62 : 63;
  };
  std::vector<std::uint8_t> bytes;
  for (std::size_t i = 0; i + 3 < b64.size(); i += 4) {
    const std::uint32_t n = digit(b64[i]) << 18 | digit(b64[i + 1]) << 12 | (b64[i + 2] == '=' ? 0 : digit(b64[i + 2]) << 6) |
                            (b64[i + 3] == '=' ? 0 : digit(b64[i + 3]));
    bytes.push_back(static_cast<std::uint8_t>(n >> 16));
    if (b64[i + 2] != '=') bytes.push_back(static_cast<std::uint8_t>(n >> 8));
    if (b64[i + 3] != '=') bytes.push_back(static_cast<std::uint8_t>(n));
  }
  std::vector<float> out(bytes.size() / 4);
  std::memcpy(out.data(), bytes.data(), out.size() * 4);
  return out;
}

}  // namespace

TEST_CASE("serve: OpenAI's /v1/embeddings gives bertkit embed's vectors byte for byte, as floats, base64 and shortened") {
  ServeChild server({"-m", bktest::minilm(), "--served-name", "mini"});
  const HttpReply r = http_request(server.port(), "POST", "/v1/embeddings", json({{"input", kServeTexts}, {"model", "mini"}}).dump());
  REQUIRE(r.status == 200);
  CHECK(r.content_type == "application/json");
  const std::vector<std::string> cli = serve_cli_values({"embed", "-m", bktest::minilm()}, serve_lines(kServeTexts), "embedding");
  REQUIRE(cli.size() == kServeTexts.size());
  CHECK(serve_values(r.body, "embedding") == cli);
  const json body = json::parse(r.body);
  CHECK(body["object"] == "list");
  CHECK(body["model"] == "mini");
  for (std::size_t i = 0; i < kServeTexts.size(); ++i) {
    CHECK(body["data"][i]["index"] == i);
    CHECK(body["data"][i]["object"] == "embedding");
  }
  CHECK(body["usage"]["prompt_tokens"].get<int>() > 0);
  CHECK(body["usage"]["total_tokens"] == body["usage"]["prompt_tokens"]);

  // One string: a list of one.
  const HttpReply one = http_request(server.port(), "POST", "/v1/embeddings", json({{"input", kServeTexts[1]}}).dump());
  REQUIRE(one.status == 200);
  CHECK(serve_values(one.body, "embedding") == std::vector{cli[1]});

  // base64: the same float32 values, little-endian.
  const HttpReply b = http_request(server.port(), "POST", "/v1/embeddings",
                                   json({{"input", kServeTexts}, {"encoding_format", "base64"}}).dump());
  REQUIRE(b.status == 200);
  const json bb = json::parse(b.body);
  for (std::size_t i = 0; i < kServeTexts.size(); ++i) {
    const std::vector<float> decoded = serve_base64_floats(bb["data"][i]["embedding"].get<std::string>());
    CHECK(decoded == json::parse(cli[i]).get<std::vector<float>>());
  }

  // dimensions: Matryoshka truncation, normalised again, as embed --truncate-dim N --normalize.
  const HttpReply d = http_request(server.port(), "POST", "/v1/embeddings", json({{"input", kServeTexts}, {"dimensions", 8}}).dump());
  REQUIRE(d.status == 200);
  CHECK(serve_values(d.body, "embedding") ==
        serve_cli_values({"embed", "-m", bktest::minilm(), "--truncate-dim", "8", "--normalize"}, serve_lines(kServeTexts), "embedding"));
  CHECK(server.wait_exit(std::chrono::seconds(0)) == std::nullopt);
}

TEST_CASE("serve: TEI's /embed, /embed_all and /embed_sparse give embed's vectors, token vectors and sparse vectors") {
  ServeChild server({"-m", bktest::minilm(), "-m", kServeSplade, "--served-name", "mini", "--served-name", "splade"});
  const std::string lines = serve_lines(kServeTexts);
  // TEI normalises unless told not to.
  HttpReply r = http_request(server.port(), "POST", "/embed", json({{"inputs", kServeTexts}}).dump());
  REQUIRE(r.status == 200);
  const json vectors = json::parse(r.body);
  REQUIRE(vectors.size() == kServeTexts.size());
  std::vector<std::string> got;
  for (const auto& v : vectors) got.push_back(v.dump());
  // The response is a bare list of lists: compare each list's text.
  const std::vector<std::string> normalised =
      serve_cli_values({"embed", "-m", bktest::minilm(), "--normalize"}, lines, "embedding");
  REQUIRE(r.body == "[" + [&] {
    std::string s;
    for (std::size_t i = 0; i < normalised.size(); ++i) s += (i ? "," : "") + normalised[i];
    return s;
  }() + "]");
  r = http_request(server.port(), "POST", "/embed?model=mini", json({{"inputs", kServeTexts[0]}, {"normalize", false}}).dump());
  REQUIRE(r.status == 200);
  CHECK(r.body == "[" + serve_cli_values({"embed", "-m", bktest::minilm(), "--no-normalize"}, lines, "embedding")[0] + "]");

  r = http_request(server.port(), "POST", "/embed_all", json({{"inputs", {kServeTexts[0], kServeTexts[2]}}}).dump());
  REQUIRE(r.status == 200);
  const std::vector<std::string> tokens =
      serve_cli_values({"embed", "-m", bktest::minilm(), "--token-embeddings"}, lines, "token_embeddings");
  CHECK(r.body == "[" + tokens[0] + "," + tokens[2] + "]");

  r = http_request(server.port(), "POST", "/embed_sparse?model=splade", json({{"inputs", {kServeTexts[1], kServeTexts[2]}}}).dump());
  REQUIRE(r.status == 200);
  const json sparse = json::parse(r.body);
  const auto cli = bktest::run_jsonl({"embed", "-m", kServeSplade, "--jsonl"}, serve_lines({kServeTexts[1], kServeTexts[2]}));
  REQUIRE(sparse.size() == 2);
  for (std::size_t i = 0; i < 2; ++i) {
    const json& want = cli[i]["sparse"];
    REQUIRE(sparse[i].size() == want["indices"].size());
    for (std::size_t k = 0; k < sparse[i].size(); ++k) {
      CHECK(sparse[i][k]["index"] == want["indices"][k]);
      CHECK(sparse[i][k]["value"].get<float>() == want["values"][k].get<float>());
    }
  }
  // A model without a sparse head says so, naming it.
  r = http_request(server.port(), "POST", "/embed_sparse?model=mini", json({{"inputs", "x"}}).dump());
  CHECK(r.status == 422);
  CHECK(json::parse(r.body)["error_type"] == "Validation");
}

TEST_CASE("serve: /rerank, /v1/rerank and /predict give rerank's and classify's scores") {
  ServeChild server({"-m", kServeCross, "-m", kServeClassifier, "--served-name", "cross", "--served-name", "cls"});
  const std::string query = "什么是机器学习";
  const std::vector<std::string> docs = {"机器学习是人工智能的一个分支", "今天天气很好", "深度学习", "机器学习"};
  const auto cli = bktest::run_jsonl({"rerank", "-m", kServeCross, "--jsonl"}, json({{"query", query}, {"documents", docs}}).dump() + "\n");
  REQUIRE(cli.size() == 1);
  const json& results = cli[0]["results"];
  HttpReply r = http_request(server.port(), "POST", "/rerank?model=cross",
                             json({{"query", query}, {"texts", docs}, {"return_text", true}}).dump());
  REQUIRE(r.status == 200);
  json got = json::parse(r.body);
  REQUIRE(got.size() == docs.size());
  for (std::size_t k = 0; k < docs.size(); ++k) {
    CHECK(got[k]["index"] == results[k]["corpus_id"]);
    CHECK(got[k]["score"].get<float>() == results[k]["score"].get<float>());
    CHECK(got[k]["text"] == docs[results[k]["corpus_id"].get<std::size_t>()]);
  }
  CHECK(serve_values(r.body, "score") == serve_values(cli[0].dump(), "score"));

  r = http_request(server.port(), "POST", "/v1/rerank",
                   json({{"model", "cross"}, {"query", query}, {"documents", docs}, {"top_n", 2}, {"return_documents", true}}).dump());
  REQUIRE(r.status == 200);
  got = json::parse(r.body);
  REQUIRE(got["results"].size() == 2);
  for (std::size_t k = 0; k < 2; ++k) {
    CHECK(got["results"][k]["index"] == results[k]["corpus_id"]);
    CHECK(got["results"][k]["relevance_score"].get<float>() == results[k]["score"].get<float>());
    CHECK(got["results"][k]["document"]["text"] == docs[results[k]["corpus_id"].get<std::size_t>()]);
  }

  // raw_scores: the logit, as rerank --function none.
  r = http_request(server.port(), "POST", "/rerank?model=cross", json({{"query", query}, {"texts", docs}, {"raw_scores", true}}).dump());
  REQUIRE(r.status == 200);
  const auto raw = bktest::run_jsonl({"rerank", "-m", kServeCross, "--function", "none", "--jsonl"},
                                     json({{"query", query}, {"documents", docs}}).dump() + "\n");
  CHECK(serve_values(r.body, "score") == serve_values(raw[0].dump(), "score"));

  // /predict: every label, best first, as classify --top-k all; a pair of texts is one input.
  const std::vector<std::string> texts = {"I love this movie", "terrible, awful film"};
  r = http_request(server.port(), "POST", "/predict?model=cls", json({{"inputs", json::array({json::array({texts[0]}), json::array({texts[1]})})}}).dump());
  REQUIRE(r.status == 200);
  const bktest::RunResult classify = run_bertkit({"classify", "-m", kServeClassifier, "--top-k", "all", texts[0], texts[1]});
  REQUIRE(classify.exit_code == 0);
  CHECK(r.body == "[" + serve_values(classify.out, "scores")[0] + "," + serve_values(classify.out, "scores")[1] + "]");
  r = http_request(server.port(), "POST", "/predict?model=cross", json({{"inputs", {query, docs[0]}}}).dump());
  REQUIRE(r.status == 200);
  CHECK(json::parse(r.body).is_array());
  for (const json& result : results)
    if (result["corpus_id"] == 0) CHECK(json::parse(r.body)[0]["score"].get<float>() == result["score"].get<float>());
  // An embedding model has no classification head.
  r = http_request(server.port(), "POST", "/rerank?model=cls", json({{"query", "q"}, {"texts", {"a"}}}).dump());
  CHECK(r.status == 422);
}

TEST_CASE("serve: /zero-shot gives zero-shot's labels and scores") {
  ServeChild server({"-m", kServeNli});
  const std::vector<std::string> labels = {"sports", "politics", "cooking"};
  const std::vector<std::string> texts = {"The match ended in a draw.", "Parliament passed the bill."};
  const HttpReply r = http_request(server.port(), "POST", "/zero-shot", json({{"inputs", texts}, {"labels", labels}}).dump());
  REQUIRE(r.status == 200);
  const bktest::RunResult cli = run_bertkit({"zero-shot", "-m", kServeNli, "--labels", "sports,politics,cooking", texts[0], texts[1]});
  REQUIRE(cli.exit_code == 0);
  CHECK(serve_values(r.body, "scores") == serve_values(cli.out, "scores"));
  CHECK(serve_values(r.body, "labels") == serve_values(cli.out, "labels"));
}

TEST_CASE("serve: /tokenize and /decode are the tokenizer's") {
  ServeChild server({"-m", bktest::minilm()});
  HttpReply r = http_request(server.port(), "POST", "/tokenize", json({{"inputs", "Hello, naïve world"}}).dump());
  REQUIRE(r.status == 200);
  const json tokens = json::parse(r.body);
  const auto cli = bktest::run_jsonl({"tokenize", "-m", bktest::minilm(), "--format", "jsonl"}, "Hello, naïve world\n");
  REQUIRE(tokens.size() == 1);
  REQUIRE(tokens[0].size() == cli[0]["ids"].size());
  std::vector<int> ids;
  for (std::size_t t = 0; t < tokens[0].size(); ++t) {
    CHECK(tokens[0][t]["id"] == cli[0]["ids"][t]);
    ids.push_back(tokens[0][t]["id"].get<int>());
  }
  CHECK(tokens[0][0]["special"] == true);
  CHECK(tokens[0][1]["text"] == "Hello");  // the input's own characters at the token's offsets
  CHECK(tokens[0][1]["start"] == 0);
  CHECK(tokens[0][1]["stop"] == 5);
  r = http_request(server.port(), "POST", "/decode", json({{"ids", ids}}).dump());
  REQUIRE(r.status == 200);
  CHECK(json::parse(r.body) == json::array({"hello, naive world"}));
  r = http_request(server.port(), "POST", "/decode", json({{"ids", {1u << 30}}}).dump());
  CHECK(r.status == 422);
}

TEST_CASE("serve: bad requests get a status and a message naming what is wrong, and the server goes on") {
  ServeChild server({"-m", bktest::minilm(), "--max-client-batch-size", "4", "--max-body-bytes", "4096", "--api-key", "sesame"});
  const std::vector<std::pair<std::string, std::string>> key = {{"Authorization", "Bearer sesame"}};
  auto post = [&](const std::string& path, const std::string& body) { return http_request(server.port(), "POST", path, body, key); };

  HttpReply r = http_request(server.port(), "POST", "/embed", json({{"inputs", "x"}}).dump());
  CHECK(r.status == 401);
  r = http_request(server.port(), "POST", "/v1/embeddings", json({{"input", "x"}}).dump(), {{"Authorization", "Bearer wrong"}});
  CHECK(r.status == 401);
  CHECK(json::parse(r.body)["error"]["type"] == "authentication_error");
  CHECK(http_request(server.port(), "GET", "/health").status == 200);  // no key needed

  r = post("/embed", "{\"inputs\": [\"a\",");
  CHECK(r.status == 400);
  CHECK(json::parse(r.body)["error"].get<std::string>().find("not valid JSON") != std::string::npos);
  r = post("/embed", json({{"inputs", {"a", 5}}}).dump());
  CHECK(r.status == 422);
  CHECK(json::parse(r.body)["error"].get<std::string>().find("inputs[1]") != std::string::npos);
  r = post("/v1/embeddings", json({{"input", "a"}, {"encoding_format", "int8"}}).dump());
  CHECK(r.status == 422);
  CHECK(json::parse(r.body)["error"]["param"] == "encoding_format");
  r = post("/v1/embeddings", json({{"input", {1, 2, 3}}}).dump());
  CHECK(r.status == 422);
  CHECK(json::parse(r.body)["error"]["message"].get<std::string>().find("token ids") != std::string::npos);
  r = post("/embed", json({{"text", "a"}}).dump());
  CHECK(r.status == 422);
  CHECK(json::parse(r.body)["error"].get<std::string>().find("\"inputs\" is missing") != std::string::npos);
  r = post("/embed", "[1,2]");
  CHECK(r.status == 422);
  r = post("/embed", json({{"inputs", {"a", "b", "c", "d", "e"}}}).dump());
  CHECK(r.status == 413);
  CHECK(json::parse(r.body)["error"].get<std::string>().find("at most 4") != std::string::npos);
  r = post("/embed", json({{"inputs", std::string(5000, 'a')}}).dump());
  CHECK(r.status == 413);
  r = post("/embed", json({{"inputs", json::array()}}).dump());
  CHECK(r.status == 400);
  CHECK(json::parse(r.body)["error_type"] == "Empty");
  r = post("/v1/embeddings", json({{"input", "a"}, {"model", "nope"}}).dump());
  CHECK(r.status == 404);
  CHECK(json::parse(r.body)["error"]["param"] == "model");
  CHECK(post("/nowhere", "{}").status == 404);
  CHECK(http_request(server.port(), "GET", "/embed", "", key).status == 405);
  r = post("/embed", json({{"inputs", "a"}, {"prompt_name", "nope"}}).dump());
  CHECK(r.status == 422);
  r = post("/embed", json({{"inputs", "a"}, {"dimensions", 100000}}).dump());
  CHECK(r.status == 422);

  // Longer than the model's limit (minilm: 64 tokens): refused unless truncation is asked for.
  std::string long_text;
  for (int i = 0; i < 100; ++i) long_text += "word ";
  r = post("/embed", json({{"inputs", {"short", long_text}}}).dump());
  CHECK(r.status == 413);
  CHECK(json::parse(r.body)["error"].get<std::string>().find("inputs[1]") != std::string::npos);
  r = post("/embed", json({{"inputs", {"short", long_text}}, {"truncate", true}}).dump());
  REQUIRE(r.status == 200);
  const std::vector<std::string> cli = serve_cli_values({"embed", "-m", bktest::minilm(), "--normalize"}, serve_lines({"short", long_text}), "embedding");
  CHECK(r.body == "[" + cli[0] + "," + cli[1] + "]");

  // Still serving after all that.
  CHECK(post("/embed", json({{"inputs", "fine"}}).dump()).status == 200);
  server.signal(SIGTERM);
  CHECK(server.wait_exit(std::chrono::seconds(30)) == 0);
}

TEST_CASE("serve: concurrent requests are merged into batches and each gets the CLI's vectors") {
  ServeChild server({"-m", bktest::minilm(), "--batch-wait-ms", "50"});
  std::vector<std::string> texts;
  for (int i = 0; i < 32; ++i) texts.push_back("sentence number " + std::to_string(i) + " about " + kServeTexts[i % kServeTexts.size()]);
  const std::vector<std::string> cli = serve_cli_values({"embed", "-m", bktest::minilm(), "--normalize"}, serve_lines(texts), "embedding");
  std::vector<std::future<HttpReply>> replies;
  for (const std::string& t : texts)
    replies.push_back(std::async(std::launch::async, [&, t] {
      return http_request(server.port(), "POST", "/embed", json({{"inputs", t}}).dump());
    }));
  for (std::size_t i = 0; i < texts.size(); ++i) {
    const HttpReply r = replies[i].get();
    REQUIRE(r.status == 200);
    CHECK(r.body == "[" + cli[i] + "]");
  }
  const std::string metrics = http_request(server.port(), "GET", "/metrics").body;
  std::smatch m;
  REQUIRE(std::regex_search(metrics, m, std::regex("bertkit_batches_total (\\d+)")));
  const int batches = std::stoi(m[1]);
  REQUIRE(std::regex_search(metrics, m, std::regex("bertkit_batch_requests_sum (\\d+)")));
  CHECK(std::stoi(m[1]) == 32);
  CHECK(batches < 32);  // merged: fewer batches than requests
  CHECK(metrics.find("bertkit_requests_total{route=\"/embed\",status=\"200\"} 32") != std::string::npos);
}

namespace {

// A request that keeps the model busy for a while (2000 inputs of 64 tokens: ~0.2 s on 2 cores, more
// under the sanitizers), so that requests sent meanwhile wait in the queue.
std::string serve_heavy_body() {
  std::string words;
  for (int i = 0; i < 60; ++i) words += "word" + std::to_string(i) + " ";
  std::vector<std::string> inputs;
  for (int k = 0; k < 2000; ++k) inputs.push_back(words + std::to_string(k));
  return json({{"inputs", inputs}, {"truncate", true}}).dump();
}

// Waits (up to 120 s) until /metrics counts at least `n` requests waiting or computing, or `done()`.
void serve_wait_depth(int port, int n, const std::function<bool()>& done = {}) {
  const auto until = std::chrono::steady_clock::now() + std::chrono::seconds(120);
  std::smatch m;
  for (;;) {
    const std::string metrics = http_request(port, "GET", "/metrics").body;
    if (std::regex_search(metrics, m, std::regex("bertkit_queue_depth (\\d+)")) && std::stoi(m[1]) >= n) return;
    if (done && done()) return;
    REQUIRE(std::chrono::steady_clock::now() < until);
    std::this_thread::sleep_for(std::chrono::milliseconds(2));
  }
}

}  // namespace

TEST_CASE("serve: a full queue answers 429 with Retry-After, a request waiting past its timeout 503") {
  const std::string heavy = serve_heavy_body();
  {
    ServeChild server({"-m", bktest::minilm(), "--max-concurrent-requests", "1", "--max-client-batch-size", "4096"});
    REQUIRE(http_request(server.port(), "POST", "/embed", heavy).status == 200);  // the lane made, warm
    auto first = std::async(std::launch::async, [&] { return http_request(server.port(), "POST", "/embed", heavy); });
    serve_wait_depth(server.port(), 1);  // the first is computing
    const HttpReply second = http_request(server.port(), "POST", "/embed", json({{"inputs", "two"}}).dump());
    CHECK(second.status == 429);
    CHECK(second.retry_after == "1");
    CHECK(json::parse(second.body)["error_type"] == "Overloaded");
    CHECK(first.get().status == 200);
    CHECK(http_request(server.port(), "POST", "/embed", json({{"inputs", "three"}}).dump()).status == 200);
  }
  ServeChild server({"-m", bktest::minilm(), "--request-timeout", "0.05", "--max-client-batch-size", "4096"});
  REQUIRE(http_request(server.port(), "POST", "/embed", heavy).status == 200);  // computing is never cut short
  auto first = std::async(std::launch::async, [&] { return http_request(server.port(), "POST", "/embed", heavy); });
  serve_wait_depth(server.port(), 1);
  const HttpReply r = http_request(server.port(), "POST", "/v1/embeddings", json({{"input", "late"}}).dump());
  CHECK(r.status == 503);
  CHECK(r.retry_after == "1");
  CHECK(json::parse(r.body)["error"]["message"].get<std::string>().find("--request-timeout") != std::string::npos);
  CHECK(first.get().status == 200);
}

TEST_CASE("serve: SIGTERM stops taking connections, answers the requests in flight and exits 0") {
  ServeChild server({"-m", bktest::minilm(), "--max-client-batch-size", "4096"});
  const std::string heavy = serve_heavy_body();
  REQUIRE(http_request(server.port(), "POST", "/embed", heavy).status == 200);
  std::vector<std::future<HttpReply>> replies;
  replies.push_back(std::async(std::launch::async, [&] { return http_request(server.port(), "POST", "/embed", heavy); }));
  serve_wait_depth(server.port(), 1);
  for (int i = 0; i < 8; ++i)
    replies.push_back(std::async(std::launch::async, [&, i] {
      return http_request(server.port(), "POST", "/embed", json({{"inputs", "in flight " + std::to_string(i)}}).dump());
    }));
  // The first computing, the others waiting (unless a slow moment let the first finish before).
  serve_wait_depth(server.port(), 9, [&] {
    return std::all_of(replies.begin(), replies.end(),
                       [](auto& f) { return f.wait_for(std::chrono::seconds(0)) == std::future_status::ready; });
  });
  server.signal(SIGTERM);
  for (auto& f : replies) CHECK(f.get().status == 200);
  CHECK(server.wait_exit(std::chrono::seconds(30)) == 0);
  CHECK(server.stderr_text().find("finishing the requests in flight") != std::string::npos);
  CHECK(http_request(server.port(), "GET", "/health").status == 0);  // nobody listens any more
}

TEST_CASE("serve: /ner and /qa give ner's entities and qa's answers") {
  const std::string ner = bktest::shared("fixtures/models2/bert-cased-ner").string();
  const std::string qa = bktest::fixture_path("bert-uncased-qa");
  ServeChild server({"-m", ner, "-m", qa, "--served-name", "ner", "--served-name", "qa"});
  const std::vector<std::string> texts = {"John Smith lives in Paris.", "Angela Merkel met Emmanuel Macron in Berlin."};
  for (const std::string aggregation : {"none", "simple", "max"}) {
    const HttpReply r = http_request(server.port(), "POST", "/ner?model=ner",
                                     json({{"inputs", texts}, {"aggregation_strategy", aggregation}}).dump());
    REQUIRE(r.status == 200);
    const bktest::RunResult cli = run_bertkit({"ner", "-m", ner, "--aggregation", aggregation, texts[0], texts[1]});
    REQUIRE(cli.exit_code == 0);
    const std::vector<std::string> entities = serve_values(cli.out, "entities");
    CHECK(r.body == "[" + entities[0] + "," + entities[1] + "]");
  }
  HttpReply r = http_request(server.port(), "POST", "/ner?model=ner", json({{"inputs", "x"}, {"aggregation_strategy", "best"}}).dump());
  CHECK(r.status == 422);

  const std::string context = "John lives in Paris. He works at the museum as a guide since 2010.";
  r = http_request(server.port(), "POST", "/qa?model=qa",
                   json({{"inputs", {{{"question", "Where does John live?"}, {"context", context}},
                                     {{"question", "What is his job?"}, {"context", context}}}},
                         {"top_k", 3}}).dump());
  REQUIRE(r.status == 200);
  const bktest::RunResult cli = run_bertkit({"qa", "-m", qa, "--context", context, "--top-k", "3", "Where does John live?", "What is his job?"});
  REQUIRE(cli.exit_code == 0);
  const std::vector<std::string> answers = serve_values(cli.out, "answers");
  CHECK(r.body == "[" + answers[0] + "," + answers[1] + "]");
  r = http_request(server.port(), "POST", "/qa?model=qa", json({{"inputs", {{"question", "Where does John live?"}, {"context", context}}}}).dump());
  REQUIRE(r.status == 200);
  const json one = json::parse(r.body);
  REQUIRE(one.size() == 1);
  CHECK(one[0] == json::parse(answers[0])[0]);
  // A model without the head says so.
  CHECK(http_request(server.port(), "POST", "/qa?model=ner", json({{"inputs", {{"question", "q"}, {"context", "c"}}}}).dump()).status == 422);
}

namespace {

#ifdef BERTKIT_SWEEP_SUBSET
constexpr int kServeLoadSeconds = 8;  // instrumented or emulated: slower, the same code paths
#else
constexpr int kServeLoadSeconds = 30;
#endif

struct ServeLoadCounts {
  std::atomic<long> sent{0}, ok{0}, refused{0}, bad_json{0}, too_large{0}, unanswered{0}, wrong{0};
};

// One client of the load: mixed requests on a keep-alive connection (a new one after the server closed
// it) until `until`; every answer is checked against what the request should get.
void serve_load_client(int port, int id, std::chrono::steady_clock::time_point until, const std::vector<std::string>& texts,
                       const std::vector<std::string>& vectors, const std::string& query, const std::vector<std::string>& docs,
                       const std::string& rerank_scores, ServeLoadCounts& counts) {
  std::optional<bktest::HttpClient> client;
  const std::string oversize = json({{"inputs", std::string(80000, 'x')}}).dump();
  for (long n = id; std::chrono::steady_clock::now() < until; ++n) {
    if (!client || !client->connected()) client.emplace(port);
    const int kind = static_cast<int>(n % 8);  // each client goes through every kind
    HttpReply r;
    ++counts.sent;
    if (kind <= 4) {
      const std::size_t t = static_cast<std::size_t>(n) % texts.size();
      r = client->request("POST", "/embed", json({{"inputs", texts[t]}}).dump());
      if (r.status == 200 && r.body != "[" + vectors[t] + "]") ++counts.wrong;
    } else if (kind == 5) {
      r = client->request("POST", "/rerank?model=cross", json({{"query", query}, {"texts", docs}}).dump());
      if (r.status == 200 && serve_values(r.body, "score") != serve_values(rerank_scores, "score")) ++counts.wrong;
    } else if (kind == 6) {
      r = client->request("POST", "/embed", "{\"inputs\": [\"unclosed");
      if (r.status == 400) ++counts.bad_json;
      else if (r.status != 0 && r.status != 429 && r.status != 503) ++counts.wrong;
    } else {
      r = client->request("POST", "/embed", oversize);
      if (r.status == 413) ++counts.too_large;
      else if (r.status != 0) ++counts.wrong;
    }
    if (r.status == 0) {
      ++counts.unanswered;
    } else if (r.status == 429 || r.status == 503) {
      ++counts.refused;
      if (r.retry_after.empty() || r.body.empty()) ++counts.wrong;
    } else if (r.status == 200) {
      ++counts.ok;
    } else if (r.body.empty() || !json::accept(r.body)) {
      ++counts.wrong;
    }
  }
}

}  // namespace

TEST_CASE("serve: 64 clients of mixed requests for 30 s: each answered once, the CLI's numbers, memory bounded, then SIGTERM") {
  ServeChild server({"-m", bktest::minilm(), "-m", kServeCross, "--served-name", "mini", "--served-name", "cross",
                     "--max-body-bytes", "65536", "--max-concurrent-requests", "48"});
  std::vector<std::string> texts;
  for (int i = 0; i < 40; ++i) texts.push_back("load sentence " + std::to_string(i) + " " + kServeTexts[i % kServeTexts.size()]);
  const std::vector<std::string> vectors = serve_cli_values({"embed", "-m", bktest::minilm(), "--normalize"}, serve_lines(texts), "embedding");
  const std::string query = "什么是机器学习";
  const std::vector<std::string> docs = {"机器学习是人工智能的一个分支", "今天天气很好", "深度学习"};
  const bktest::RunResult rerank = run_bertkit({"rerank", "-m", kServeCross, "--jsonl"}, json({{"query", query}, {"documents", docs}}).dump() + "\n");
  REQUIRE(rerank.exit_code == 0);

  ServeLoadCounts counts;
  auto run_clients = [&](std::chrono::steady_clock::time_point until) {
    std::vector<std::thread> clients;
    for (int id = 0; id < 64; ++id)
      clients.emplace_back(serve_load_client, server.port(), id, until, std::cref(texts), std::cref(vectors), std::cref(query),
                           std::cref(docs), std::cref(rerank.out), std::ref(counts));
    return clients;
  };
  const auto start = std::chrono::steady_clock::now();
  std::vector<std::thread> clients = run_clients(start + std::chrono::seconds(kServeLoadSeconds));
  std::this_thread::sleep_for(std::chrono::seconds(kServeLoadSeconds / 4));
  const long rss_early = server.rss_kib();
  for (auto& c : clients) c.join();
  const long rss_late = server.rss_kib();
  MESSAGE("sent " << counts.sent.load() << ", ok " << counts.ok.load() << ", refused " << counts.refused.load() << ", 400 "
               << counts.bad_json.load() << ", 413 " << counts.too_large.load() << ", unanswered " << counts.unanswered.load()
               << ", wrong " << counts.wrong.load() << "; RSS " << rss_early << " -> " << rss_late << " KiB");
  CHECK(counts.wrong == 0);
  CHECK(counts.unanswered == 0);  // every request got exactly one answer (a second would have been read as the next's)
  CHECK(counts.ok > 0);
  CHECK(counts.bad_json > 0);
  CHECK(counts.too_large > 0);
  CHECK(counts.ok + counts.refused + counts.bad_json + counts.too_large == counts.sent);
  CHECK(rss_late < rss_early + rss_early / 2 + 65536);  // no growth with the requests served

  // The server counted each request once (413s for the body's size too, answered before the body is read).
  const std::string metrics = http_request(server.port(), "GET", "/metrics").body;
  long counted = 0;
  std::smatch m;
  for (auto it = metrics.cbegin(); std::regex_search(it, metrics.cend(), m, std::regex("bertkit_requests_total\\{route=\"(/embed|/rerank)\",status=\"\\d+\"\\} (\\d+)")); it = m.suffix().first)
    counted += std::stol(m[2]);
  CHECK(counted == counts.sent.load());

  // SIGTERM under load: requests in flight are answered; after it, connections are closed or refused.
  counts.sent = counts.ok = counts.unanswered = counts.wrong = 0;
  clients = run_clients(std::chrono::steady_clock::now() + std::chrono::seconds(4));
  std::this_thread::sleep_for(std::chrono::seconds(1));
  server.signal(SIGTERM);
  for (auto& c : clients) c.join();
  CHECK(server.wait_exit(std::chrono::seconds(30)) == 0);
  CHECK(counts.wrong == 0);
  CHECK(counts.ok > 0);
}

TEST_CASE("serve: TEI's /similarity gives similarity's scores of the source against each sentence") {
  ServeChild server({"-m", bktest::minilm(), "-m", kServeCross, "--served-name", "mini", "--served-name", "cross"});
  const std::string source = kServeTexts[1];
  const std::vector<std::string> sentences = {kServeTexts[0], kServeTexts[2], kServeTexts[5]};
  const HttpReply r = http_request(server.port(), "POST", "/similarity",
                                   json({{"inputs", {{"source_sentence", source}, {"sentences", sentences}}}}).dump());
  REQUIRE(r.status == 200);
  std::string pairs;
  for (const auto& s : sentences) pairs += source + "\t" + s + "\n";
  const bktest::RunResult cli = run_bertkit({"similarity", "-m", bktest::minilm(), "--pairs"}, pairs);
  REQUIRE(cli.exit_code == 0);
  std::string want = "[";
  for (const std::string& score : serve_values(cli.out, "score")) want += (want.size() > 1 ? "," : "") + score;
  CHECK(r.body == want + "]");
  // A cross-encoder ranks with /rerank; a bad shape names the field.
  CHECK(http_request(server.port(), "POST", "/similarity?model=cross",
                     json({{"inputs", {{"source_sentence", "a"}, {"sentences", {"b"}}}}}).dump()).status == 422);
  const HttpReply bad = http_request(server.port(), "POST", "/similarity", json({{"inputs", "a"}}).dump());
  CHECK(bad.status == 422);
  CHECK(json::parse(bad.body)["error"].get<std::string>().find("\"inputs\"") != std::string::npos);
}
