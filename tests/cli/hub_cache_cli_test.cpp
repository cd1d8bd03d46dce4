// What a model id finds in the Hugging Face cache, through the binary and a local Hub
// (tests/tools/hub_stand_in.py): every file the loader reads is downloaded (a RoBERTa repository
// without tokenizer.json included), a snapshot is trusted only when complete, one that lacks files is
// completed per file online and refused offline naming what it lacks, and `tokenize -m` reads no weights.
#include "cli/hub_stand_in.h"
#include "cli/task_cli_helpers.h"

#include <doctest/doctest.h>

#include <set>

namespace fs = std::filesystem;
using bktest::HubEnvironment;
using bktest::HubStandIn;
using bktest::mentions;
using bktest::run_bertkit;

namespace {

const std::string kMiniLm = "test-org/minilm";
const std::string kMiniLmFolder = "models--test-org--minilm";
const std::string kSentence = "A man is eating food.";

// The paths of the files the stand-in served (GET), resolve requests only.
std::multiset<std::string> files_served(const nlohmann::json& stats) {
  std::multiset<std::string> out;
  for (const auto& r : stats["requests"]) {
    const std::string path = r[1].get<std::string>();
    const auto resolve = path.find("/resolve/");
    if (r[0] == "GET" && resolve != std::string::npos) out.insert(path.substr(path.find('/', resolve + 9) + 1));
  }
  return out;
}

// A snapshot of `repo` at `commit` in the cache, as huggingface_hub leaves it: refs/main and a link per
// file of the fixture folder `from` that `keep` names.
fs::path cache_snapshot(const HubEnvironment& env, const std::string& repo_folder, const std::string& commit,
                        const fs::path& from, const std::vector<std::string>& keep) {
  const fs::path repo = env.repo(repo_folder);
  bktest::write_file(repo / "refs/main", commit);
  const fs::path snapshot = repo / "snapshots" / commit;
  for (const std::string& file : keep) {
    fs::create_directories((snapshot / file).parent_path());
    fs::create_symlink(from / file, snapshot / file);
  }
  return snapshot;
}

std::string embedding_of_folder() {
  const auto r = run_bertkit({"embed", "-m", bktest::fixture_path("minilm-embed"), kSentence});
  REQUIRE(r.exit_code == 0);
  return r.out;
}

}  // namespace

TEST_CASE("hub cache: a RoBERTa repository with vocab.json and merges.txt and no tokenizer.json downloads every file "
          "its tokenizer needs, and runs") {
  const std::string repo = "test-org/roberta";
  const fs::path fixture = bktest::models2_path("roberta-cls");
  REQUIRE_FALSE(fs::exists(fixture / "tokenizer.json"));
  HubStandIn hub({repo + "=" + fixture.string()});
  HubEnvironment env(hub.endpoint());
  auto r = run_bertkit({"download", repo});
  INFO(r.err);
  REQUIRE(r.exit_code == 0);
  CHECK(bktest::files_under(bktest::trimmed(r.out)) == std::set<std::string>{"config.json", "merges.txt", "pytorch_model.bin",
                                                               "special_tokens_map.json", "vocab.json"});
  const auto expected = run_bertkit({"classify", "-m", fixture.string(), kSentence});
  REQUIRE(expected.exit_code == 0);
  r = run_bertkit({"classify", "-m", repo, kSentence});
  CHECK(r.exit_code == 0);
  CHECK(r.out == expected.out);
  r = run_bertkit({"tokenize", "--format", "ids", "-m", repo, kSentence});
  CHECK(r.exit_code == 0);
  CHECK(r.out == run_bertkit({"tokenize", "--format", "ids", "-m", fixture.string(), kSentence}).out);
}

TEST_CASE("hub cache: download --exclude that leaves no weights says so (exit 2), a model command completes the "
          "snapshot online, fetching only what is missing, and refuses it offline naming the file") {
  HubStandIn hub({kMiniLm + "=" + bktest::fixture_path("minilm-embed")});
  HubEnvironment env(hub.endpoint());
  const std::string expected = embedding_of_folder();
  auto r = run_bertkit({"download", "--exclude", "*.safetensors", kMiniLm});
  CHECK(r.exit_code == 2);
  CHECK(mentions(r.err, "--exclude left out model.safetensors"));
  CHECK(mentions(r.err, "lacks its weights"));
  CHECK(bktest::count_lines(r.err) == 1);
  const fs::path snapshot = env.repo(kMiniLmFolder) / "snapshots" / hub.commit(kMiniLm);
  CHECK(fs::exists(snapshot / "tokenizer.json"));
  CHECK_FALSE(fs::exists(snapshot / "model.safetensors"));
  CHECK(fs::exists(env.repo(kMiniLmFolder) / "refs/main"));

  hub.stats();
  // The tokenizer is all `tokenize` needs: used as it is, without a request.
  r = run_bertkit({"tokenize", "-m", kMiniLm, kSentence});
  CHECK(r.exit_code == 0);
  CHECK(hub.stats()["requests"].empty());
  {
    bktest::ScopedEnv offline("HF_HUB_OFFLINE", "1");
    r = run_bertkit({"embed", "-m", kMiniLm, kSentence});
    CHECK(r.exit_code == 1);
    CHECK(mentions(r.err, "lacks its weights (model.safetensors,"));
    CHECK(mentions(r.err, "`bertkit download " + kMiniLm + "` completes it"));
    CHECK(bktest::count_lines(r.err) == 1);
  }
  r = run_bertkit({"embed", "-m", kMiniLm, kSentence});
  INFO(r.err);
  REQUIRE(r.exit_code == 0);
  CHECK(mentions(r.err, kMiniLm + " is in the Hugging Face cache, but it lacks its weights"));
  CHECK(mentions(r.err, "fetching what is missing"));
  CHECK(r.out == expected);
  CHECK(files_served(hub.stats()) == std::multiset<std::string>{"model.safetensors"});
  // Complete now: no request.
  r = run_bertkit({"embed", "-m", kMiniLm, kSentence});
  CHECK(r.out == expected);
  CHECK(hub.stats()["requests"].empty());
}

TEST_CASE("hub cache: download --exclude of one weights format exits 0 when another is there") {
  HubStandIn hub({kMiniLm + "=" + bktest::fixture_path("bert-uncased-mlm")});
  HubEnvironment env(hub.endpoint());
  auto r = run_bertkit({"download", "--exclude", "*.safetensors", kMiniLm});
  INFO(r.err);
  CHECK(r.exit_code == 0);
  CHECK(fs::exists(fs::path(bktest::trimmed(r.out)) / "pytorch_model.bin"));
}

TEST_CASE("hub cache: a cache filled with the config and tokenizer only (as AutoTokenizer leaves it) is completed by "
          "a model command") {
  HubStandIn hub({kMiniLm + "=" + bktest::fixture_path("minilm-embed")});
  HubEnvironment env(hub.endpoint());
  const std::string expected = embedding_of_folder();
  const std::vector<std::string> tokenizer_only{"config.json", "tokenizer.json", "tokenizer_config.json", "vocab.txt",
                                                "special_tokens_map.json"};
  cache_snapshot(env, kMiniLmFolder, hub.commit(kMiniLm), bktest::fixture_path("minilm-embed"), tokenizer_only);
  hub.stats();
  auto r = run_bertkit({"embed", "-m", kMiniLm, kSentence});
  INFO(r.err);
  REQUIRE(r.exit_code == 0);
  CHECK(r.out == expected);  // pooling and normalisation came with the weights: sentence-transformers' numbers
  CHECK(files_served(hub.stats()) ==
        std::multiset<std::string>{"modules.json", "config_sentence_transformers.json", "model.safetensors",
                                   "sentence_bert_config.json", "1_Pooling/config.json"});
}

TEST_CASE("hub cache: a download cut off after the weights is not trusted offline, a snapshot no ref names is not "
          "taken for the branch") {
  HubStandIn hub({kMiniLm + "=" + bktest::fixture_path("minilm-embed")});
  HubEnvironment env(hub.endpoint());
  hub.set("fail_file=sentence_bert_config.json");
  auto r = run_bertkit({"download", kMiniLm});
  CHECK(r.exit_code == 1);
  const std::string commit = hub.commit(kMiniLm);
  const fs::path snapshot = env.repo(kMiniLmFolder) / "snapshots" / commit;
  REQUIRE(fs::exists(snapshot / "model.safetensors"));  // loadable, but without its max_seq_length
  {
    bktest::ScopedEnv offline("HF_HUB_OFFLINE", "1");
    r = run_bertkit({"embed", "-m", kMiniLm, kSentence});
    CHECK(r.exit_code == 1);
    CHECK(r.out.empty());
    CHECK(mentions(r.err, "not in the Hugging Face cache"));
    CHECK(mentions(r.err, "a download into it stopped"));
    // Named by its commit, the snapshot is found, and the mark still keeps it from being used.
    r = run_bertkit({"embed", "-m", kMiniLm + "@" + commit, kSentence});
    CHECK(r.exit_code == 1);
    CHECK(mentions(r.err, "a download into it stopped before its end"));
  }
  // A complete snapshot that no ref names (downloaded at a commit) is not taken for main.
  hub.set("fail_file=");
  REQUIRE(run_bertkit({"download", kMiniLm + "@" + commit}).exit_code == 0);
  CHECK_FALSE(fs::exists(env.repo(kMiniLmFolder) / "refs/main"));
  bktest::ScopedEnv offline("HF_HUB_OFFLINE", "1");
  r = run_bertkit({"embed", "-m", kMiniLm, kSentence});
  CHECK(r.exit_code == 1);
  CHECK(mentions(r.err, "its snapshots are of other revisions: name one, as " + kMiniLm + "@" + commit));
  CHECK(run_bertkit({"embed", "-m", kMiniLm + "@" + commit, kSentence}).exit_code == 0);
}

TEST_CASE("hub cache: tokenize -m of a cached model or a converted file reads no weights") {
  bktest::TempDir dir;
  HubEnvironment env("http://127.0.0.1:1");
  bktest::ScopedEnv offline("HF_HUB_OFFLINE", "1");
  const fs::path fixture = bktest::fixture_path("minilm-embed");
  const fs::path snapshot = cache_snapshot(env, kMiniLmFolder, "0123456789abcdef0123456789abcdef01234567", fixture,
                                           {"config.json", "tokenizer.json", "tokenizer_config.json", "vocab.txt",
                                            "special_tokens_map.json", "modules.json", "1_Pooling/config.json"});
  bktest::write_file(snapshot / "model.safetensors", "not weights");  // unreadable as weights
  const auto expected = run_bertkit({"tokenize", "-m", fixture.string(), kSentence});
  REQUIRE(expected.exit_code == 0);
  auto r = run_bertkit({"tokenize", "-m", kMiniLm, kSentence});
  INFO(r.err);
  CHECK(r.exit_code == 0);
  CHECK(r.out == expected.out);
  CHECK(run_bertkit({"embed", "-m", kMiniLm, kSentence}).exit_code == 3);  // the weights are read there

  // A converted file whose config names a model type bertkit does not run: its tokenizer still reads.
  const fs::path converted = dir / "model.bk";
  REQUIRE(run_bertkit({"convert", fixture.string(), converted.string()}).exit_code == 0);
  std::string bytes = bktest::read_file(converted);
  const auto type = bytes.find("model_type");
  REQUIRE(type != std::string::npos);
  const auto bert = bytes.find("bert", type);
  REQUIRE(bert - type < 20);
  bytes.replace(bert, 4, "gpt2");
  bktest::write_file(converted, bytes);
  REQUIRE(run_bertkit({"embed", "-m", converted.string(), kSentence}).exit_code == 3);
  r = run_bertkit({"tokenize", "-m", converted.string(), kSentence});
  CHECK(r.exit_code == 0);
  CHECK(r.out == expected.out);
}
