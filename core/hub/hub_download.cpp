#include "core/hub/hub_download.h"

#include "core/error.h"
#include "core/setting.h"
#include "core/files.h"
#include "core/hub/http_client.h"
#include "core/hub/sha256.h"

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include <fcntl.h>
#include <sys/file.h>
#include <unistd.h>

#include <algorithm>
#include <cctype>
#include <cerrno>
#include <cstdlib>
#include <cstring>

namespace bertkit::core {

namespace fs = std::filesystem;

namespace {

std::string trim(std::string s) {
  while (!s.empty() && std::isspace(static_cast<unsigned char>(s.back()))) s.pop_back();
  std::size_t start = 0;
  while (start < s.size() && std::isspace(static_cast<unsigned char>(s[start]))) ++start;
  return s.substr(start);
}

// HF_TOKEN, else the file huggingface-cli login writes (HF_TOKEN_PATH, else $HF_HOME/token).
std::string hub_token() {
  if (const char* v = hub_env("HF_TOKEN")) return trim(v);
  const fs::path file = hub_env("HF_TOKEN_PATH") ? fs::path(hub_env("HF_TOKEN_PATH")) : hf_home_dir() / "token";
  std::error_code ec;
  if (!fs::is_regular_file(file, ec)) return {};
  return trim(read_text_file(file));
}

long seconds_from_env(const char* name, long fallback) {
  const char* v = hub_env(name);
  if (!v) return fallback;
  char* end = nullptr;
  const double seconds = std::strtod(v, &end);
  return end && *end == '\0' && seconds > 0 ? std::max(1L, static_cast<long>(seconds + 0.5)) : fallback;
}

// An etag as a blob name: without W/ and quotes.
std::string normalized_etag(std::string etag) {
  if (etag.starts_with("W/")) etag.erase(0, 2);
  if (etag.size() >= 2 && etag.front() == '"' && etag.back() == '"') etag = etag.substr(1, etag.size() - 2);
  return etag;
}

bool is_sha256(std::string_view etag) {
  return etag.size() == 64 && std::all_of(etag.begin(), etag.end(), [](char c) { return std::isxdigit(static_cast<unsigned char>(c)); });
}

// A file held open and locked (flock) while it lives: huggingface_hub's .locks/ files.
class BlobLock {
 public:
  explicit BlobLock(const fs::path& path) {
    fs::create_directories(path.parent_path());
    fd_ = ::open(path.c_str(), O_RDWR | O_CREAT | O_CLOEXEC, 0644);
    if (fd_ < 0) runtime_error("{}: {}", path.string(), std::strerror(errno));
    while (::flock(fd_, LOCK_EX) != 0)
      if (errno != EINTR) runtime_error("{}: cannot lock: {}", path.string(), std::strerror(errno));
  }
  ~BlobLock() { ::close(fd_); }  // closing releases the lock
  BlobLock(const BlobLock&) = delete;
  BlobLock& operator=(const BlobLock&) = delete;

 private:
  int fd_ = -1;
};

struct FileMeta {
  std::string etag;
  std::uint64_t size = 0;
};

class HubSession {
 public:
  HubSession(const ModelId& id, const DownloadOptions& options)
      : id_(id), options_(options), endpoint_(hub_endpoint()), cache_(hf_download_cache_dir()),
        repo_dir_(cache_ / repo_folder_name(id.repo)), locks_dir_(cache_ / ".locks" / repo_folder_name(id.repo)),
        metadata_seconds_(seconds_from_env("HF_HUB_ETAG_TIMEOUT", 10)),
        download_seconds_(seconds_from_env("HF_HUB_DOWNLOAD_TIMEOUT", 10)) {
    headers_.push_back("Accept-Encoding: identity");  // sizes and ranges are of the bytes stored
    if (const std::string token = hub_token(); !token.empty()) headers_.push_back("Authorization: Bearer " + token);
  }

  DownloadResult run();

 private:
  DownloadResult cached_copy(const CacheLookup& cached, const std::string& why);
  void note(const std::string& line) const {
    if (options_.observer) options_.observer->note(line);
  }
  [[noreturn]] void refuse(const HttpReply& reply, const std::string& what) const;
  std::vector<std::string> revision_info();
  FileMeta file_meta(const std::string& path) const;
  std::string fetch(const std::string& path);  // the pointer in the snapshot; returns its path
  void fetch_blob(const std::string& path, const FileMeta& meta, const fs::path& blob);
  void link(const fs::path& pointer, const std::string& path, const std::string& etag) const;
  std::string file_url(const std::string& path) const {
    return fmt::format("{}/{}/resolve/{}/{}", endpoint_, id_.repo, url_quote(commit_, false), url_quote(path, true));
  }

  const ModelId& id_;
  const DownloadOptions& options_;
  std::string endpoint_;
  fs::path cache_, repo_dir_, locks_dir_;
  long metadata_seconds_, download_seconds_;
  std::vector<std::string> headers_;
  std::string commit_;
  DownloadResult result_;
};

void HubSession::refuse(const HttpReply& reply, const std::string& what) const {
  const std::string code = reply.header("x-error-code");
  const std::string page = fmt::format("{}/{}", endpoint_, id_.repo);
  const bool token = std::any_of(headers_.begin(), headers_.end(), [](const auto& h) { return h.starts_with("Authorization"); });
  if (code == "GatedRepo" || reply.status == 403)
    runtime_error("model {}: access refused ({}): the model is gated or private; accept its licence at {} and set "
                  "HF_TOKEN to a token of that account{}",
                  id_.text(), reply.status, page, token ? "" : " (no token is set)");
  if (code == "RevisionNotFound")
    runtime_error("model {}: no revision \"{}\" on {} ({})", id_.text(), id_.revision, endpoint_, reply.status);
  if (code == "EntryNotFound")
    runtime_error("model {}: {} is not in the repository at {} ({})", id_.text(), what, commit_, reply.status);
  if (reply.status == 401)
    runtime_error("model {}: not found or not allowed (401): check the name, or for a gated or private model set "
                  "HF_TOKEN{} and accept its licence at {}",
                  id_.text(), token ? " to a token with access" : "", page);
  if (reply.status == 404)
    runtime_error("model {}: not found on {} (404): check the name{}", id_.text(), endpoint_,
                  id_.revision_given ? " and the revision" : "");
  runtime_error("model {}: {} answered {} for {}", id_.text(), endpoint_, reply.status, what);
}

std::vector<std::string> HubSession::revision_info() {
  HttpRequest request;
  request.url = fmt::format("{}/api/models/{}/revision/{}", endpoint_, id_.repo, url_quote(id_.revision, false));
  request.headers = headers_;
  request.follow_redirects = true;
  request.stall_seconds = metadata_seconds_;
  const HttpReply reply = http_send(request);
  if (reply.status != 200) refuse(reply, "the model's revision");
  const nlohmann::json info = nlohmann::json::parse(reply.body, nullptr, false);
  if (!info.is_object() || !info.value("sha", nlohmann::json()).is_string() || !info.contains("siblings"))
    runtime_error("model {}: {} did not answer the revision API with a commit and a file list", id_.text(), endpoint_);
  commit_ = info["sha"].get<std::string>();
  if (!safe_revision(commit_) || commit_.find('/') != std::string::npos)
    runtime_error("model {}: {} answered the commit \"{}\"", id_.text(), endpoint_, commit_);
  // Paths that would leave the snapshot folder are never taken, whatever --include says.
  auto inside = [](const std::string& path) {
    return !path.empty() && !path.starts_with('/') && path.find('\\') == std::string::npos &&
           std::string_view(path).find("..") == std::string_view::npos && path.find("//") == std::string::npos &&
           !path.ends_with('/');
  };
  std::vector<std::string> files;
  for (const auto& s : info["siblings"])
    if (s.is_object() && s.value("rfilename", nlohmann::json()).is_string() && inside(s["rfilename"].get<std::string>()))
      files.push_back(s["rfilename"].get<std::string>());
  return files;
}

// HEAD on the file: the Hub's own headers, before the redirect of a large file to its storage (a
// relative redirect -- a renamed repository -- is followed).
FileMeta HubSession::file_meta(const std::string& path) const {
  HttpRequest request;
  request.url = file_url(path);
  request.head = true;
  request.headers = headers_;
  request.stall_seconds = metadata_seconds_;
  HttpReply reply;
  for (int hops = 0;; ++hops) {
    try {
      reply = http_send(request);
    } catch (const NetworkError& e) {
      runtime_error("model {}: cannot reach {} for {} ({}); run the command again", id_.text(), endpoint_, path, e.what());
    }
    const std::string location = reply.header("location");
    if (reply.status < 300 || reply.status >= 400 || location.empty() || !location.starts_with('/') || hops == 5) break;
    request.url = endpoint_ + location;
  }
  if (reply.status >= 400) refuse(reply, path);
  FileMeta meta;
  meta.etag = normalized_etag(reply.header("x-linked-etag").empty() ? reply.header("etag") : reply.header("x-linked-etag"));
  const std::string size = reply.header("x-linked-size").empty() ? reply.header("content-length") : reply.header("x-linked-size");
  if (meta.etag.empty() || meta.etag.find('/') != std::string::npos || meta.etag.find("..") != std::string::npos)
    runtime_error("model {}: {} gave no usable ETag for {}", id_.text(), endpoint_, path);
  try {
    meta.size = std::stoull(size);
  } catch (const std::exception&) {
    runtime_error("model {}: {} gave no size for {}", id_.text(), endpoint_, path);
  }
  return meta;
}

void HubSession::link(const fs::path& pointer, const std::string& path, const std::string& etag) const {
  // Relative, as huggingface_hub makes them: from snapshots/<commit>/<dirs of path> up to the repo.
  std::string target;
  for (std::size_t i = 0, up = 2 + std::count(path.begin(), path.end(), '/'); i < up; ++i) target += "../";
  target += "blobs/" + etag;
  fs::create_directories(pointer.parent_path());
  // Made aside and renamed: another bertkit linking the same file at once is not an error.
  const fs::path temp = pointer.string() + fmt::format(".{}.link", ::getpid());
  fs::remove(temp);
  refuse_replacing_special_file(pointer);
  fs::create_symlink(target, temp);
  fs::rename(temp, pointer);
}

void HubSession::fetch_blob(const std::string& path, const FileMeta& meta, const fs::path& blob) {
  const fs::path incomplete = blob.string() + ".incomplete";
  std::error_code ec;
  std::uint64_t have = fs::exists(incomplete, ec) ? fs::file_size(incomplete) : 0;
  if (have > meta.size) {
    fs::resize_file(incomplete, 0);
    have = 0;
  }
  const int fd = ::open(incomplete.c_str(), O_WRONLY | O_CREAT | O_CLOEXEC, 0644);
  if (fd < 0) runtime_error("{}: {}", incomplete.string(), std::strerror(errno));
  struct Closer {
    int fd;
    ~Closer() { ::close(fd); }
  } closer{fd};
  std::uint64_t written = have;
  if (options_.observer) options_.observer->file_started(path, meta.size, have);
  if (have < meta.size) {
    HttpRequest request;
    request.url = file_url(path);
    request.headers = headers_;
    request.follow_redirects = true;
    request.range_from = have;
    request.stall_seconds = download_seconds_;
    bool first = true;
    request.sink = [&](std::span<const std::byte> bytes, long status) {
      if (first && status == 200 && written > 0) {  // the range was ignored: the whole file comes again
        if (::ftruncate(fd, 0) != 0) runtime_error("{}: {}", incomplete.string(), std::strerror(errno));
        written = 0;
      }
      first = false;
      if (::pwrite(fd, bytes.data(), bytes.size(), static_cast<off_t>(written)) != static_cast<ssize_t>(bytes.size()))
        runtime_error("{}: {}", incomplete.string(), std::strerror(errno));
      written += bytes.size();
      result_.bytes_fetched += bytes.size();
      if (options_.observer) options_.observer->file_progress(written);
    };
    HttpReply reply;
    try {
      reply = http_send(request);
    } catch (const NetworkError& e) {
      if (options_.observer) options_.observer->file_finished();
      runtime_error("model {}: the download of {} stopped after {} of {} bytes ({}); run the command again to resume",
                    id_.text(), path, written, meta.size, e.what());
    }
    if (options_.observer) options_.observer->file_finished();
    if (reply.status >= 400) refuse(reply, path);
    if (reply.status != 200 && reply.status != 206)
      runtime_error("model {}: {} answered {} for {}", id_.text(), endpoint_, reply.status, path);
    ++result_.files_fetched;
  } else if (options_.observer) {
    options_.observer->file_finished();
  }
  if (written != meta.size) {
    fs::remove(incomplete);
    runtime_error("model {}: {} came with {} bytes instead of {}; removed, run the command again", id_.text(), path,
                  written, meta.size);
  }
  if (is_sha256(meta.etag)) {
    const std::string digest = sha256_file(incomplete);
    std::string expected = meta.etag;
    std::transform(expected.begin(), expected.end(), expected.begin(), [](unsigned char c) { return std::tolower(c); });
    if (digest != expected) {
      fs::remove(incomplete);
      runtime_error("model {}: {} is corrupt (sha256 {} instead of {}); it was not kept, run the command again",
                    id_.text(), path, digest, expected);
    }
  }
  refuse_replacing_special_file(blob);
  fs::rename(incomplete, blob);
}

std::string HubSession::fetch(const std::string& path) {
  const fs::path pointer = repo_dir_ / "snapshots" / commit_ / path;
  std::error_code ec;
  if (fs::exists(pointer, ec)) return pointer.string();  // in the cache already (a dangling link is fetched again)
  const FileMeta meta = file_meta(path);
  const fs::path blob = repo_dir_ / "blobs" / meta.etag;
  fs::create_directories(blob.parent_path());
  {
    BlobLock lock(locks_dir_ / (meta.etag + ".lock"));
    if (!fs::exists(blob)) fetch_blob(path, meta, blob);
  }
  link(pointer, path, meta.etag);
  return pointer.string();
}

// The copy in the cache when the Hub is not asked (`why`): used when complete, else refused naming what
// it lacks and how to complete it.
DownloadResult HubSession::cached_copy(const CacheLookup& cached, const std::string& why) {
  if (!cached.snapshot)
    runtime_error("model {}: not in the Hugging Face cache ({}), and {}", id_.text(), cached.why_not, why);
  if (auto lacking = incomplete_snapshot(cached, options_.need))
    runtime_error("model {}: the copy in the Hugging Face cache ({}) is incomplete: {}; {}: `bertkit download {}` "
                  "completes it",
                  id_.text(), cached.snapshot->string(), *lacking, why, id_.text());
  result_.snapshot = *cached.snapshot;
  result_.commit = result_.snapshot.filename().string();
  result_.offline = true;
  return result_;
}

DownloadResult HubSession::run() {
  const CacheLookup cached = find_cached_model(id_);
  if (options_.offline || hub_offline())
    return cached_copy(cached, fmt::format("{} forbids downloading it", options_.offline ? spelling(Setting::Offline) : "HF_HUB_OFFLINE"));
  std::vector<std::string> siblings;
  try {
    siblings = revision_info();
  } catch (const NetworkError& e) {
    if (!cached.snapshot)
      runtime_error("model {}: cannot reach {} ({}): check the network, or HF_ENDPOINT", id_.text(), endpoint_, e.what());
    cached_copy(cached, fmt::format("{} cannot be reached ({})", endpoint_, e.what()));
    note(fmt::format("cannot reach {} ({}): using the copy of {} in the cache", endpoint_, e.what(), id_.text()));
    return result_;
  }
  auto listed = [&](const std::string& path) { return std::find(siblings.begin(), siblings.end(), path) != siblings.end(); };

  // Marked until the end, for a run after one cut off between two files (CacheLookup::cut_off).
  const fs::path snapshot = repo_dir_ / "snapshots" / commit_;
  const fs::path marker = snapshot / kDownloadMarker;
  fs::create_directories(snapshot);
  AtomicFile(marker).commit();

  // The module folders, then the architecture from config.json: refused before any weights come.
  ModuleFolders modules = root_transformer();
  const std::string modules_json(kModulesJson);
  if (listed(modules_json)) modules = read_module_folders(read_text_file(fetch(modules_json)), id_.text() + ":" + modules_json);
  const std::string config = modules.transformer + std::string(kConfig);
  // A StaticEmbedding module has no config.json: its tokenizer and table come with the module's files.
  if (!listed(config) && !modules.static_embedding)
    bad_input("model {}: the repository has no {}: not a transformers model", id_.text(), config);
  const std::string config_path = listed(config) ? fetch(config) : std::string();
  if (options_.check_config && !config_path.empty()) {
    try {
      options_.check_config(read_text_file(config_path), id_.text() + ":" + config);
    } catch (const Error& e) {
      bad_input("{} (nothing else was downloaded)", e.what());
    }
  }
  for (const std::string& path : files_to_fetch(siblings, modules, options_.filters)) fetch(path);

  if (id_.revision != commit_) {  // a branch or tag: refs/ remembers the commit it named
    const fs::path ref = repo_dir_ / "refs" / id_.revision;
    fs::create_directories(ref.parent_path());
    AtomicFile file(ref);
    file.write(std::as_bytes(std::span(commit_)));
    file.commit();
  }
  fs::remove(marker);
  result_.snapshot = snapshot;
  result_.commit = commit_;
  result_.lacking = first_missing_file(snapshot, ModelPart::Whole);
  std::error_code ec;
  for (const std::string& path : files_to_fetch(siblings, modules, {options_.filters.includes, {}}))
    if (!fs::exists(snapshot / path, ec)) result_.excluded.push_back(path);
  return result_;
}

}  // namespace

std::string hub_endpoint() {
  std::string endpoint = hub_env("HF_ENDPOINT") ? hub_env("HF_ENDPOINT") : "https://huggingface.co";
  while (endpoint.ends_with('/')) endpoint.pop_back();
  return endpoint;
}

bool hub_offline() {
  const char* v = hub_env("HF_HUB_OFFLINE");
  if (!v) return false;
  std::string s(v);
  std::transform(s.begin(), s.end(), s.begin(), [](unsigned char c) { return std::toupper(c); });
  return s == "1" || s == "ON" || s == "YES" || s == "TRUE";
}

DownloadResult download_model(const ModelId& id, const DownloadOptions& options) {
  return HubSession(id, options).run();
}

}  // namespace bertkit::core
