#pragma once
// The local Hugging Face Hub the download tests talk to (tests/tools/hub_stand_in.py), started on an
// ephemeral port of 127.0.0.1 and stopped when the object dies; and the environment that points
// bertkit at it with a cache of the test's own.
#include "support.h"

#include "core/hub/http_client.h"

#include <doctest/doctest.h>
#include <nlohmann/json.hpp>

#include <signal.h>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <filesystem>
#include <memory>
#include <set>
#include <string>
#include <thread>
#include <vector>

extern char** environ;

namespace bktest {

class HubStandIn {
 public:
  // `repos`: "ORG/NAME=FOLDER" or "ORG/NAME@BRANCH=FOLDER".
  explicit HubStandIn(const std::vector<std::string>& repos) {
    const std::string port_file = (dir_ / "port").string();
    std::vector<std::string> args{"python3", std::string(BERTKIT_SOURCE_DIR) + "/tests/tools/hub_stand_in.py",
                                  "--port-file", port_file};
    for (const auto& r : repos) args.insert(args.end(), {"--repo", r});
    std::vector<char*> argv;
    for (auto& a : args) argv.push_back(a.data());
    argv.push_back(nullptr);
    REQUIRE_MESSAGE(posix_spawnp(&pid_, "python3", nullptr, nullptr, argv.data(), environ) == 0, "cannot start python3");
    const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(20);
    while (!std::filesystem::exists(port_file)) {
      int status = 0;
      if (waitpid(pid_, &status, WNOHANG) == pid_) {
        pid_ = -1;
        FAIL("the Hub stand-in exited at start");
      }
      if (std::chrono::steady_clock::now() > deadline) FAIL("the Hub stand-in did not start within 20 s");
      std::this_thread::sleep_for(std::chrono::milliseconds(20));
    }
    endpoint_ = "http://127.0.0.1:" + read_file(port_file);
  }
  ~HubStandIn() {
    if (pid_ <= 0) return;
    kill(pid_, SIGTERM);
    int status = 0;
    waitpid(pid_, &status, 0);
  }
  HubStandIn(const HubStandIn&) = delete;
  HubStandIn& operator=(const HubStandIn&) = delete;

  const std::string& endpoint() const { return endpoint_; }

  nlohmann::json get(const std::string& path) const {
    bertkit::core::HttpRequest request;
    request.url = endpoint_ + path;
    const auto reply = bertkit::core::http_send(request);
    REQUIRE(reply.status == 200);
    return nlohmann::json::parse(reply.body);
  }
  // Sets (or, with an empty value, clears) the switches: "drop_after=1000000&corrupt=1".
  void set(const std::string& query) const { get("/_control?" + query); }
  // What was served since the last reset: body_bytes, requests ([method, path, range]), lfs_authorization.
  nlohmann::json stats(bool reset = true) const { return get(reset ? "/_stats?reset=1" : "/_stats"); }
  std::string commit(const std::string& repo, const std::string& revision = "main") const {
    return get("/api/models/" + repo + "/revision/" + revision)["sha"].get<std::string>();
  }

 private:
  TempDir dir_;
  pid_t pid_ = -1;
  std::string endpoint_;
};

// bertkit's environment for one test: the stand-in as the Hub, a fresh cache, no token, online,
// and short timeouts so that a stalled transfer fails in seconds.
class HubEnvironment {
 public:
  explicit HubEnvironment(const std::string& endpoint) {
    for (const char* name : {"HUGGINGFACE_HUB_CACHE", "TRANSFORMERS_CACHE", "PYTORCH_TRANSFORMERS_CACHE",
                             "PYTORCH_PRETRAINED_BERT_CACHE", "HF_TOKEN", "HF_TOKEN_PATH", "HF_HUB_OFFLINE"})
      envs_.push_back(std::make_unique<ScopedEnv>(name, ""));
    envs_.push_back(std::make_unique<ScopedEnv>("HF_ENDPOINT", endpoint));
    envs_.push_back(std::make_unique<ScopedEnv>("HF_HOME", home_.path().string()));
    envs_.push_back(std::make_unique<ScopedEnv>("HF_HUB_CACHE", (home_ / "hub").string()));
    envs_.push_back(std::make_unique<ScopedEnv>("HF_HUB_ETAG_TIMEOUT", "5"));
    envs_.push_back(std::make_unique<ScopedEnv>("HF_HUB_DOWNLOAD_TIMEOUT", "5"));
  }
  std::filesystem::path hub() const { return home_ / "hub"; }
  std::filesystem::path repo(const std::string& name) const { return hub() / name; }

 private:
  TempDir home_;
  std::vector<std::unique_ptr<ScopedEnv>> envs_;
};

// The one snapshot of `repo_folder` (models--ORG--NAME) in the test's cache.
inline std::filesystem::path only_snapshot(const HubEnvironment& env, const std::string& repo_folder) {
  std::filesystem::path only;
  for (const auto& entry : std::filesystem::directory_iterator(env.repo(repo_folder) / "snapshots")) only = entry.path();
  return only;
}

// A command's printed path, without its newline.
inline std::string trimmed(std::string s) {
  while (!s.empty() && s.back() == '\n') s.pop_back();
  return s;
}

// Whether a command's output or message `text` contains `part`.
inline bool mentions(const std::string& text, const std::string& part) { return text.find(part) != std::string::npos; }

// The files under `dir`, relative, symlinks included (not followed).
inline std::set<std::string> files_under(const std::filesystem::path& dir) {
  std::set<std::string> out;
  for (auto it = std::filesystem::recursive_directory_iterator(dir); it != std::filesystem::recursive_directory_iterator(); ++it)
    if (!it->is_directory() || it->is_symlink()) out.insert(it->path().lexically_relative(dir).string());
  return out;
}

}  // namespace bktest
