// `bertkit download` and `-m ORG/NAME` against a local Hub (tests/tools/hub_stand_in.py): the
// protocol, huggingface_hub's cache layout, resumption, checks, errors, offline mode, revisions and
// two downloads at once. Each test starts its own server and cache.
#include "cli/hub_stand_in.h"
#include "cli/pty_child.h"
#include "cli/task_cli_helpers.h"

#include "core/hub/sha256.h"

#include <doctest/doctest.h>

#include <cmath>
#include <future>
#include <set>

namespace fs = std::filesystem;
using bktest::HubEnvironment;
using bktest::HubStandIn;
using bktest::files_under;
using bktest::mentions;
using bktest::run_bertkit;
using bktest::trimmed;

namespace {

const std::string kRepo = "test-org/minilm";
const std::string kRepoFolder = "models--test-org--minilm";

std::string served(const std::string& fixture) { return kRepo + "=" + bktest::fixture_path(fixture); }

int requests_to(const nlohmann::json& stats, const std::string& prefix) {
  int n = 0;
  for (const auto& r : stats["requests"]) n += r[1].get<std::string>().starts_with(prefix);
  return n;
}

std::uint64_t weights_size() { return fs::file_size(bktest::shared("fixtures/models/minilm-embed/model.safetensors")); }

}  // namespace

TEST_CASE("download: a fresh download is laid out as huggingface_hub lays it out, runs as the goldens say, and is "
          "not fetched again") {
  HubStandIn hub({served("minilm-embed")});
  HubEnvironment env(hub.endpoint());
  const std::string commit = hub.commit(kRepo);
  hub.stats();

  auto r = run_bertkit({"download", kRepo});
  INFO(r.err);
  REQUIRE(r.exit_code == 0);
  const fs::path repo = env.repo(kRepoFolder);
  const fs::path snapshot = repo / "snapshots" / commit;
  CHECK(trimmed(r.out) == snapshot.string());
  CHECK(bktest::read_file(repo / "refs/main") == commit);

  // What bertkit reads, nothing else (goldens.json is in the repository too).
  const std::set<std::string> expected{"config.json", "config_sentence_transformers.json", "model.safetensors", "modules.json",
                                       "sentence_bert_config.json", "special_tokens_map.json", "tokenizer.json",
                                       "tokenizer_config.json", "vocab.txt", "1_Pooling/config.json"};
  CHECK(files_under(snapshot) == expected);
  for (const std::string& file : expected) {
    CAPTURE(file);
    const fs::path pointer = snapshot / file;
    REQUIRE(fs::is_symlink(pointer));
    const fs::path target = fs::read_symlink(pointer);
    CHECK(target.is_relative());
    const std::string up = file.find('/') == std::string::npos ? "../../" : "../../../";
    CHECK(target.string().starts_with(up + "blobs/"));
    CHECK(bktest::read_file(pointer) == bktest::read_file(bktest::shared("fixtures/models/minilm-embed/" + file)));
  }
  // The large file's blob is named by its sha256, as the Hub's X-Linked-Etag gives it.
  const std::string sha = bertkit::core::sha256_file(bktest::shared("fixtures/models/minilm-embed/model.safetensors"));
  CHECK(fs::read_symlink(snapshot / "model.safetensors").string() == "../../blobs/" + sha);
  CHECK(fs::exists(env.hub() / ".locks" / kRepoFolder / (sha + ".lock")));
  for (const auto& blob : fs::directory_iterator(repo / "blobs")) CHECK_FALSE(blob.path().string().ends_with(".incomplete"));

  auto stats = hub.stats();
  CHECK(requests_to(stats, "/lfs/") == 1);  // the large file came through the redirect
  CHECK(stats["lfs_authorization"] == 0);

  // The cached model runs (offline lookup) and gives sentence-transformers' embeddings.
  const auto goldens = bktest::fixture_goldens("minilm-embed")["sentence_embeddings"];
  std::vector<std::string> args{"embed", "-m", kRepo};
  for (const auto& s : goldens["sentences"]) args.push_back(s.get<std::string>());
  const auto records = bktest::run_jsonl(args);
  REQUIRE(records.size() == goldens["normalized"].size());
  for (std::size_t i = 0; i < records.size(); ++i)
    for (std::size_t k = 0; k < goldens["normalized"][i].size(); ++k)
      CHECK(std::abs(records[i]["embedding"][k].get<double>() - goldens["normalized"][i][k].get<double>()) < bktest::kTolerance);
  CHECK(hub.stats()["requests"].empty());  // a cached model is not asked about

  // A second download asks for the commit and fetches nothing.
  r = run_bertkit({"download", kRepo});
  CHECK(r.exit_code == 0);
  CHECK(trimmed(r.out) == snapshot.string());
  CHECK(mentions(r.err, "up to date"));
  stats = hub.stats();
  CHECK(stats["body_bytes"].get<std::uint64_t>() < 1000);  // the revision API's answer only
  CHECK(stats["requests"].size() == 1);
}

TEST_CASE("download: -m ORG/NAME of a model not in the cache downloads it first, saying so") {
  HubStandIn hub({served("minilm-embed")});
  HubEnvironment env(hub.endpoint());
  auto r = run_bertkit({"embed", "-m", kRepo, "A man is eating food."});
  INFO(r.err);
  REQUIRE(r.exit_code == 0);
  CHECK(mentions(r.err, kRepo + " is not in the Hugging Face cache: downloading"));
  CHECK(mentions(r.err, env.hub().string()));
  CHECK(bktest::json_lines(r.out).size() == 1);
  r = run_bertkit({"-q", "info", kRepo});  // now cached: no note, no request
  CHECK(r.exit_code == 0);
  CHECK(r.err.empty());
  CHECK(requests_to(hub.stats(), "/api/") == 1);
}

TEST_CASE("download: with TRANSFORMERS_CACHE set, the model goes there, as transformers puts it") {
  HubStandIn hub({served("minilm-embed")});
  HubEnvironment env(hub.endpoint());
  bktest::TempDir transformers;
  bktest::ScopedEnv cache("TRANSFORMERS_CACHE", transformers.path().string());
  auto r = run_bertkit({"download", kRepo});
  REQUIRE(r.exit_code == 0);
  CHECK(trimmed(r.out) == (transformers / kRepoFolder / "snapshots" / hub.commit(kRepo)).string());
  CHECK_FALSE(fs::exists(env.repo(kRepoFolder)));
  CHECK(run_bertkit({"info", kRepo}).exit_code == 0);
  CHECK(requests_to(hub.stats(), "/api/") == 2);  // the download's and the test's own: info found it cached
}

TEST_CASE("download: a dropped connection resumes where it stopped") {
  HubStandIn hub({served("minilm-embed")});
  HubEnvironment env(hub.endpoint());
  const std::uint64_t size = weights_size();
  hub.set("drop_after=" + std::to_string(size / 2));
  auto r = run_bertkit({"download", kRepo});
  CHECK(r.exit_code == 1);
  CHECK(mentions(r.err, "the download of model.safetensors stopped after"));
  CHECK(mentions(r.err, "run the command again to resume"));
  const std::string sha = bertkit::core::sha256_file(bktest::shared("fixtures/models/minilm-embed/model.safetensors"));
  const fs::path incomplete = env.repo(kRepoFolder) / "blobs" / (sha + ".incomplete");
  REQUIRE(fs::exists(incomplete));
  const std::uint64_t kept = fs::file_size(incomplete);
  CHECK(kept > 0);
  CHECK(kept < size);

  hub.set("drop_after=");
  hub.stats();
  r = run_bertkit({"download", kRepo});
  INFO(r.err);
  REQUIRE(r.exit_code == 0);
  const auto stats = hub.stats();
  std::uint64_t second = 0;
  std::string range;
  for (const auto& q : stats["requests"])
    if (q[1].get<std::string>().starts_with("/lfs/")) range = q[2].get<std::string>();
  second = stats["body_bytes"].get<std::uint64_t>();
  CHECK(range == "bytes=" + std::to_string(kept) + "-");
  CHECK(second < size);  // the rest of the weights and the small files only
  CHECK_FALSE(fs::exists(incomplete));
  CHECK(bertkit::core::sha256_file(env.repo(kRepoFolder) / "blobs" / sha) == sha);
}

TEST_CASE("download: -m ORG/NAME after an auto-download stopped finishes it before running") {
  HubStandIn hub({served("minilm-embed")});
  HubEnvironment env(hub.endpoint());
  const std::string text = "A man is eating food.";
  const auto expected = run_bertkit({"embed", "-m", bktest::fixture_path("minilm-embed"), text});
  REQUIRE(expected.exit_code == 0);
  hub.set("drop_after=" + std::to_string(weights_size() / 2));
  auto r = run_bertkit({"embed", "-m", kRepo, text});
  CHECK(r.exit_code == 1);
  CHECK(mentions(r.err, "run the command again to resume"));
  // The snapshot holds the files that came before the weights, and no ref names it yet.
  REQUIRE(fs::exists(env.repo(kRepoFolder) / "snapshots" / hub.commit(kRepo) / "config.json"));
  CHECK_FALSE(fs::exists(env.repo(kRepoFolder) / "refs" / "main"));
  {  // Offline, the part there is is all there is: used as before, without a request.
    bktest::ScopedEnv offline("HF_HUB_OFFLINE", "1");
    CHECK(run_bertkit({"embed", "-m", kRepo, text}).exit_code != 0);
  }
  hub.set("drop_after=");
  r = run_bertkit({"embed", "-m", kRepo, text});
  INFO(r.err);
  REQUIRE(r.exit_code == 0);
  CHECK(mentions(r.err, kRepo + " is in the Hugging Face cache only in part (a download stopped): downloading"));
  CHECK(r.out == expected.out);
  CHECK(fs::exists(env.repo(kRepoFolder) / "refs" / "main"));
}

TEST_CASE("download: -m ORG/NAME after an auto-download stopped between two files finishes it before running") {
  HubStandIn hub({served("minilm-embed")});
  HubEnvironment env(hub.endpoint());
  const std::string text = "A man is eating food.";
  const auto expected = run_bertkit({"embed", "-m", bktest::fixture_path("minilm-embed"), text});
  REQUIRE(expected.exit_code == 0);
  // The weights come whole, then the server fails: no blob is half written.
  hub.set("fail_file=sentence_bert_config.json");
  auto r = run_bertkit({"embed", "-m", kRepo, text});
  CHECK(r.exit_code == 1);
  const fs::path snapshot = env.repo(kRepoFolder) / "snapshots" / hub.commit(kRepo);
  REQUIRE(fs::exists(snapshot / "model.safetensors"));
  CHECK_FALSE(fs::exists(snapshot / "sentence_bert_config.json"));
  for (const auto& blob : fs::directory_iterator(env.repo(kRepoFolder) / "blobs"))
    CHECK(blob.path().extension() != ".incomplete");
  hub.set("fail_file=");
  r = run_bertkit({"embed", "-m", kRepo, text});
  INFO(r.err);
  REQUIRE(r.exit_code == 0);
  CHECK(mentions(r.err, kRepo + " is in the Hugging Face cache only in part (a download stopped): downloading"));
  CHECK(r.out == expected.out);
  CHECK(fs::exists(snapshot / "sentence_bert_config.json"));
  CHECK_FALSE(fs::exists(snapshot / ".bertkit-download-incomplete"));  // the mark is gone once it is whole
  // Whole, it is used as it is: no request.
  hub.stats(true);
  r = run_bertkit({"embed", "-m", kRepo, text});
  CHECK(r.exit_code == 0);
  CHECK(r.out == expected.out);
  CHECK(hub.stats()["requests"].empty());
}

TEST_CASE("download: a corrupted payload is refused and not left in the cache") {
  HubStandIn hub({served("minilm-embed")});
  HubEnvironment env(hub.endpoint());
  hub.set("corrupt=1");
  auto r = run_bertkit({"download", kRepo});
  CHECK(r.exit_code == 1);
  CHECK(mentions(r.err, "model.safetensors is corrupt (sha256"));
  CHECK(mentions(r.err, "it was not kept"));
  const fs::path repo = env.repo(kRepoFolder);
  for (const auto& blob : fs::directory_iterator(repo / "blobs")) {
    CAPTURE(blob.path());
    CHECK(blob.file_size() < weights_size());  // neither the blob nor its .incomplete stays
  }
  CHECK_FALSE(fs::exists(repo / "snapshots" / hub.commit(kRepo) / "model.safetensors"));
  hub.set("corrupt=");
  CHECK(run_bertkit({"download", kRepo}).exit_code == 0);
}

TEST_CASE("download: 401, 403, 404 and 500 are one line each saying what to do") {
  HubStandIn hub({served("minilm-embed")});
  HubEnvironment env(hub.endpoint());
  auto r = run_bertkit({"download", "test-org/absent"});
  CHECK(r.exit_code == 1);
  CHECK(r.err == "bertkit: error: model test-org/absent: not found on " + hub.endpoint() + " (404): check the name\n");
  r = run_bertkit({"download", kRepo + "@no-such-branch"});
  CHECK(r.exit_code == 1);
  CHECK(mentions(r.err, "no revision \"no-such-branch\""));

  hub.set("status=401");
  r = run_bertkit({"download", kRepo});
  CHECK(r.exit_code == 1);
  CHECK(mentions(r.err, "(401)"));
  CHECK(mentions(r.err, "set HF_TOKEN"));
  CHECK(bktest::count_lines(r.err) == 1);
  hub.set("status=500");
  r = run_bertkit({"download", kRepo});
  CHECK(r.exit_code == 1);
  CHECK(mentions(r.err, "answered 500"));

  // A gated model: refused without its token, fetched with it (HF_TOKEN, or $HF_HOME/token); the token
  // goes to the Hub only, never to the host large files are redirected to.
  hub.set("status=&token=secret-token&error_code=GatedRepo");
  r = run_bertkit({"download", kRepo});
  CHECK(r.exit_code == 1);
  CHECK(mentions(r.err, "gated or private; accept its licence at " + hub.endpoint() + "/" + kRepo));
  CHECK(mentions(r.err, "(no token is set)"));
  {
    bktest::ScopedEnv token("HF_TOKEN", "secret-token");
    r = run_bertkit({"download", kRepo});
    INFO(r.err);
    CHECK(r.exit_code == 0);
  }
  CHECK(hub.stats()["lfs_authorization"] == 0);
  fs::remove_all(env.hub());
  bktest::write_file(env.hub().parent_path() / "token", "secret-token\n");
  CHECK(run_bertkit({"download", kRepo}).exit_code == 0);

  r = run_bertkit({"download", "../etc"});
  CHECK(r.exit_code == 3);
  CHECK(mentions(r.err, "is not a Hugging Face model id"));
}

TEST_CASE("download: offline, a cached model is used without a request and a missing one is refused") {
  HubStandIn hub({served("minilm-embed")});
  HubEnvironment env(hub.endpoint());
  {
    bktest::ScopedEnv offline("HF_HUB_OFFLINE", "1");
    auto r = run_bertkit({"download", kRepo});
    CHECK(r.exit_code == 1);
    CHECK(mentions(r.err, "not in the Hugging Face cache"));
    CHECK(mentions(r.err, "HF_HUB_OFFLINE forbids downloading it"));
    r = run_bertkit({"embed", "-m", kRepo, "text"});
    CHECK(r.exit_code == 1);
    CHECK(mentions(r.err, "HF_HUB_OFFLINE"));
  }
  auto r = run_bertkit({"download", "--offline", kRepo});
  CHECK(r.exit_code == 1);
  CHECK(mentions(r.err, "--offline forbids"));
  CHECK(hub.stats()["requests"].empty());

  REQUIRE(run_bertkit({"download", kRepo}).exit_code == 0);
  const fs::path snapshot = env.repo(kRepoFolder) / "snapshots" / hub.commit(kRepo);
  hub.stats();
  r = run_bertkit({"download", "--offline", kRepo});
  CHECK(r.exit_code == 0);
  CHECK(trimmed(r.out) == snapshot.string());
  {
    bktest::ScopedEnv offline("HF_HUB_OFFLINE", "1");
    CHECK(run_bertkit({"embed", "-m", kRepo, "text"}).exit_code == 0);
  }
  CHECK(hub.stats()["requests"].empty());

  // No network: the cached copy is used and said so; a model not cached cannot be had.
  bktest::ScopedEnv nowhere("HF_ENDPOINT", "http://127.0.0.1:1");
  r = run_bertkit({"download", kRepo});
  CHECK(r.exit_code == 0);
  CHECK(mentions(r.err, "cannot reach http://127.0.0.1:1"));
  CHECK(trimmed(r.out) == snapshot.string());
  r = run_bertkit({"download", "test-org/other"});
  CHECK(r.exit_code == 1);
  CHECK(mentions(r.err, "cannot reach http://127.0.0.1:1"));
}

TEST_CASE("download: a revision by branch and by commit") {
  HubStandIn hub({served("minilm-embed"), kRepo + "@v2=" + bktest::fixture_path("bert-uncased-mlm")});
  HubEnvironment env(hub.endpoint());
  const fs::path repo = env.repo(kRepoFolder);
  const std::string v2 = hub.commit(kRepo, "v2"), main = hub.commit(kRepo);
  auto r = run_bertkit({"download", kRepo + "@v2"});
  INFO(r.err);
  REQUIRE(r.exit_code == 0);
  CHECK(trimmed(r.out) == (repo / "snapshots" / v2).string());
  CHECK(bktest::read_file(repo / "refs/v2") == v2);
  // safetensors before pytorch_model.bin, both in the repository
  CHECK(fs::exists(repo / "snapshots" / v2 / "model.safetensors"));
  CHECK_FALSE(fs::exists(repo / "snapshots" / v2 / "pytorch_model.bin"));

  r = run_bertkit({"download", kRepo + "@" + main});
  REQUIRE(r.exit_code == 0);
  CHECK(trimmed(r.out) == (repo / "snapshots" / main).string());
  CHECK_FALSE(fs::exists(repo / "refs/main"));  // a commit names itself: no ref
  CHECK_FALSE(fs::exists(repo / "refs" / main));

  // -m takes the revision too, from the cache.
  r = run_bertkit({"info", "--json", kRepo + "@v2"});
  CHECK(r.exit_code == 0);
  CHECK(mentions(r.out, "BertForMaskedLM"));
  r = run_bertkit({"info", "--json", kRepo + "@" + main});
  CHECK(r.exit_code == 0);
  CHECK(mentions(r.out, "BertModel"));
}

TEST_CASE("download: two downloads of one model at once share the blobs and both succeed") {
  HubStandIn hub({served("minilm-embed")});
  HubEnvironment env(hub.endpoint());
  hub.set("delay=0.005");  // about a third of a second for the weights: the two overlap
  auto first = std::async(std::launch::async, [] { return run_bertkit({"download", kRepo}); });
  auto second = std::async(std::launch::async, [] { return run_bertkit({"download", kRepo}); });
  const auto a = first.get(), b = second.get();
  CHECK(a.exit_code == 0);
  CHECK(b.exit_code == 0);
  CHECK(a.out == b.out);
  CHECK(requests_to(hub.stats(), "/lfs/") == 1);  // the second waited for the first's blob
  const std::string sha = bertkit::core::sha256_file(bktest::shared("fixtures/models/minilm-embed/model.safetensors"));
  CHECK(bertkit::core::sha256_file(fs::path(trimmed(a.out)) / "model.safetensors") == sha);
}

TEST_CASE("download: an architecture bertkit does not run is refused from config.json before the weights") {
  bktest::TempDir dir;
  const std::string folder = bktest::fixture_with(dir, "minilm-embed", "config.json", "model_type", "gpt2");
  HubStandIn hub({kRepo + "=" + folder});
  HubEnvironment env(hub.endpoint());
  auto r = run_bertkit({"download", kRepo});
  CHECK(r.exit_code == 3);
  CHECK(mentions(r.err, "nothing else was downloaded"));
  CHECK(mentions(r.err, "gpt2"));
  CHECK(requests_to(hub.stats(), "/lfs/") == 0);
}

TEST_CASE("download: a server that stops sending fails after HF_HUB_DOWNLOAD_TIMEOUT, and the next call resumes") {
  HubStandIn hub({served("minilm-embed")});
  HubEnvironment env(hub.endpoint());
  bktest::ScopedEnv timeout("HF_HUB_DOWNLOAD_TIMEOUT", "1");
  hub.set("delay=3");
  const auto start = std::chrono::steady_clock::now();
  auto r = run_bertkit({"download", kRepo});
  CHECK(r.exit_code == 1);
  CHECK(mentions(r.err, "stopped after 0 of"));
  CHECK(std::chrono::steady_clock::now() - start < std::chrono::seconds(15));
  hub.set("delay=");
  CHECK(run_bertkit({"download", kRepo}).exit_code == 0);
}

TEST_CASE("download: a progress bar per file on a terminal or with --progress, nothing on a pipe") {
  HubStandIn hub({served("minilm-embed")});
  HubEnvironment env(hub.endpoint());
  auto r = run_bertkit({"download", kRepo});
  REQUIRE(r.exit_code == 0);
  CHECK_FALSE(mentions(r.err, "%"));  // stderr is a pipe: the summary line only
  fs::remove_all(env.hub());
  r = run_bertkit({"download", "--progress", kRepo});
  REQUIRE(r.exit_code == 0);
  CHECK(mentions(r.err, "model.safetensors  100%  4.1/4.1 MB"));
  CHECK(mentions(r.err, "1_Pooling/config.json  100%"));
  fs::remove_all(env.hub());
  r = run_bertkit({"-q", "download", "--progress", kRepo});
  CHECK(r.err.empty());

  fs::remove_all(env.hub());
  bktest::PtyChild child({"download", kRepo});  // a terminal: the bar without asking
  CHECK(child.wait_for("files fetched"));
  CHECK(child.exit_code() == 0);
  CHECK(mentions(child.seen(), "model.safetensors  100%"));
}
