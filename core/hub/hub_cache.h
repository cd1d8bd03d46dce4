#pragma once
// The Hugging Face hub cache, laid out as huggingface_hub lays it out, so transformers,
// sentence-transformers and bertkit share its files:
//   <cache>/models--ORG--NAME/blobs/<etag>              the files' bytes (etag: the sha256 of large files)
//   <cache>/models--ORG--NAME/snapshots/<commit>/<path> relative symlinks to the blobs
//   <cache>/models--ORG--NAME/refs/<revision>           the commit a branch or tag named when fetched
//   <cache>/.locks/models--ORG--NAME/<etag>.lock         held while a blob is written
#include "core/folder_files.h"

#include <filesystem>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace bertkit::core {

// `-m ORG/NAME[@REVISION]`: a Hub repository id and the branch, tag or commit asked for.
struct ModelId {
  std::string repo;                  // "ORG/NAME" or "NAME"
  std::string revision = "main";
  bool revision_given = false;       // "@REVISION" was written
  std::string text() const { return revision_given ? repo + "@" + revision : repo; }
};
// nullopt when `spec` cannot be a model id (a path, "..", characters the Hub refuses).
std::optional<ModelId> parse_model_id(std::string_view spec);

// An environment variable huggingface_hub reads, or nullptr when unset or empty (as it treats both).
const char* hub_env(const char* name);

// The hub cache: HF_HUB_CACHE, else HUGGINGFACE_HUB_CACHE, else HF_HOME/hub, else XDG_CACHE_HOME or
// ~/.cache + huggingface/hub, as huggingface_hub resolves it.
std::filesystem::path hf_hub_cache_dir();
// HF_HOME, else XDG_CACHE_HOME or ~/.cache + huggingface: where huggingface_hub keeps `token`.
std::filesystem::path hf_home_dir();
// The caches a model id is looked up in, in order: transformers' own when set (TRANSFORMERS_CACHE,
// else PYTORCH_TRANSFORMERS_CACHE, else PYTORCH_PRETRAINED_BERT_CACHE, as transformers reads them),
// then the hub cache.
std::vector<std::filesystem::path> hf_cache_dirs();
// Where a download goes: the first of hf_cache_dirs() (transformers downloads into its own cache when
// TRANSFORMERS_CACHE is set, and so does bertkit).
std::filesystem::path hf_download_cache_dir();

// "models--ORG--NAME".
std::string repo_folder_name(std::string_view repo);

// A revision as a file name under refs/ or snapshots/: no "..", no absolute path, no control bytes.
bool safe_revision(std::string_view revision);

// A model id looked up in the caches, offline, as huggingface_hub looks it up: the snapshot
// refs/<revision> names, else snapshots/<revision> (a commit). Nothing else: a snapshot no ref names is
// not taken for the branch (it may be another commit's, or a download's that stopped before writing it).
struct CacheLookup {
  std::optional<std::filesystem::path> snapshot;
  std::string why_not;  // when absent: what was looked at, for the message
  // A download into the snapshot (or, when no ref names one yet, into a snapshot of the repository)
  // stopped before its end: it holds kDownloadMarker.
  bool cut_off = false;
};

// A file bertkit keeps in a snapshot folder while it downloads into it, and removes once every file
// is there and refs/ is written. A download cut off between two files half-writes no blob: this is
// what tells the next run that the snapshot holds only the files that came first.
inline constexpr std::string_view kDownloadMarker = ".bertkit-download-incomplete";
CacheLookup find_cached_model(const ModelId& id);

// Why the snapshot found cannot be used as it is for `part` ("a download into it stopped before its end",
// "it lacks its weights (...)"), or nothing when it is complete: only then is it trusted without
// asking the Hub.
std::optional<std::string> incomplete_snapshot(const CacheLookup& cached, ModelPart part);

}  // namespace bertkit::core
