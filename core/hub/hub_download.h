#pragma once
// Fetching a model from the Hugging Face Hub into the hub cache (hub_cache.h), speaking the protocol
// huggingface_hub speaks: the revision API for the commit and the file list, a HEAD per file for its
// etag and size, then a GET (redirects followed, Range to resume) into blobs/<etag>.incomplete, checked
// (size; sha256 when the etag is one) and renamed, under a lock per blob.
#include "core/hub/hub_cache.h"
#include "core/hub/hub_files.h"

#include <cstdint>
#include <filesystem>
#include <functional>
#include <optional>
#include <string>
#include <vector>

namespace bertkit::core {

// What the user sees of a download: notes (one line each) and each file's bytes as they come.
class DownloadObserver {
 public:
  virtual ~DownloadObserver() = default;
  virtual void note(const std::string& line) { (void)line; }
  virtual void file_started(const std::string& path, std::uint64_t size, std::uint64_t resumed_from) {
    (void)path, (void)size, (void)resumed_from;
  }
  virtual void file_progress(std::uint64_t bytes_done) { (void)bytes_done; }
  virtual void file_finished() {}
};

struct DownloadOptions {
  FileFilters filters;
  bool offline = false;  // --offline; HF_HUB_OFFLINE counts too
  DownloadObserver* observer = nullptr;
  // What the copy in the cache must hold to be used when the Hub is not asked (offline, unreachable).
  ModelPart need = ModelPart::Whole;
  // Throws bertkit::Error when config.json (its text, and where it is, for messages) names a model
  // bertkit does not run: the download stops before the weights. The CLI gives the model config's
  // parser; the downloader itself knows no model configs.
  std::function<void(const std::string& config_json, const std::string& where)> check_config;
};

struct DownloadResult {
  std::filesystem::path snapshot;
  std::string commit;
  int files_fetched = 0;            // files whose bytes came over the network
  std::uint64_t bytes_fetched = 0;  // those bytes
  bool offline = false;             // answered from the cache without asking the Hub
  // What the snapshot lacks to run the model (first_missing_file), when the repository or --exclude
  // left it out: "its weights (...)".
  std::optional<std::string> lacking;
  // The files bertkit reads that --exclude kept from the snapshot (absent from it).
  std::vector<std::string> excluded;
};

// HF_ENDPOINT without its trailing '/', else https://huggingface.co.
std::string hub_endpoint();
// HF_HUB_OFFLINE set to 1, ON, YES or TRUE (any case), as huggingface_hub reads it.
bool hub_offline();

// Errors: a 404, 401 or 403 names the model and what to do (exit 1); an architecture bertkit does not
// run is refused from config.json before the weights are fetched (exit 3, options.check_config); with no
// network, a model already in the cache is used and said so when it is complete (incomplete_snapshot),
// else refused naming what it lacks (exit 1). Files already in the snapshot are not fetched again: a
// download into a snapshot that lacks files fetches those only.
DownloadResult download_model(const ModelId& id, const DownloadOptions& options);

}  // namespace bertkit::core
