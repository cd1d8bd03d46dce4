#include "core/hub/hub_cache.h"

#include "core/error.h"
#include "core/files.h"

#include <fmt/ranges.h>

#include <cctype>
#include <cstdlib>

namespace bertkit::core {

namespace fs = std::filesystem;

namespace {

bool is_repo_id(std::string_view spec) {
  if (spec.empty() || spec.front() == '/' || spec.front() == '.' || spec.find("..") != std::string_view::npos)
    return false;
  int slashes = 0;
  for (char c : spec) {
    if (c == '/') ++slashes;
    else if (!(std::isalnum(static_cast<unsigned char>(c)) || c == '-' || c == '_' || c == '.')) return false;
  }
  return slashes <= 1 && spec.back() != '/';
}

std::string trimmed(std::string s) {
  while (!s.empty() && (s.back() == '\n' || s.back() == '\r' || s.back() == ' ')) s.pop_back();
  return s;
}

// A snapshot found, cut off when a download's mark is still in it.
CacheLookup found(const fs::path& snapshot) { return {snapshot, {}, fs::exists(snapshot / kDownloadMarker)}; }

// The snapshot of `id` in one repository folder, or why there is none.
CacheLookup lookup_in(const fs::path& repo_dir, const ModelId& id) {
  const fs::path ref = repo_dir / "refs" / id.revision;
  if (fs::is_regular_file(ref)) {
    const std::string commit = trimmed(read_text_file(ref));
    if (!is_repo_id(commit) || commit.find('/') != std::string::npos)
      bad_input("{}: not a revision: \"{}\"", ref.string(), commit);
    const fs::path snapshot = repo_dir / "snapshots" / commit;
    if (fs::is_directory(snapshot)) return found(snapshot);
    return {std::nullopt, fmt::format("{} names snapshot {}, which is missing", ref.string(), commit)};
  }
  const fs::path commit = repo_dir / "snapshots" / id.revision;
  if (fs::is_directory(commit)) return found(commit);
  // A first download that stopped has not written refs/ yet: its snapshot is not taken, but said.
  std::vector<std::string> snapshots;
  bool cut_off = false;
  std::error_code ec;
  if (fs::is_directory(repo_dir / "snapshots", ec))
    for (const auto& e : fs::directory_iterator(repo_dir / "snapshots"))
      if (e.is_directory()) {
        snapshots.push_back(e.path().filename().string());
        cut_off = cut_off || fs::exists(e.path() / kDownloadMarker);
      }
  std::string why = fmt::format("{} has no refs/{} nor snapshots/{}", repo_dir.string(), id.revision, id.revision);
  if (cut_off) why += " (a download into it stopped before writing refs/)";
  else if (!snapshots.empty())
    why += fmt::format(" (its snapshots are of other revisions: name one, as {}@{})", id.repo, snapshots.front());
  return {std::nullopt, why, cut_off};
}

}  // namespace

const char* hub_env(const char* name) {
  const char* v = std::getenv(name);
  return v && *v ? v : nullptr;
}

std::optional<ModelId> parse_model_id(std::string_view spec) {
  ModelId id;
  const auto at = spec.find('@');
  id.repo = std::string(spec.substr(0, at));
  if (at != std::string_view::npos) {
    id.revision = std::string(spec.substr(at + 1));
    id.revision_given = true;
    if (!safe_revision(id.revision)) return std::nullopt;
  }
  if (!is_repo_id(id.repo)) return std::nullopt;
  return id;
}

bool safe_revision(std::string_view revision) {
  if (revision.empty() || revision.front() == '/' || revision.back() == '/' || revision.find("..") != std::string_view::npos)
    return false;
  for (char c : revision)
    if (static_cast<unsigned char>(c) < 0x21 || c == '\\' || c == '@') return false;
  return true;
}

fs::path hf_home_dir() {
  if (const char* v = hub_env("HF_HOME")) return v;
  if (const char* v = hub_env("XDG_CACHE_HOME")) return fs::path(v) / "huggingface";
  if (const char* v = hub_env("HOME")) return fs::path(v) / ".cache" / "huggingface";
  return fs::path(".cache") / "huggingface";
}

fs::path hf_hub_cache_dir() {
  if (const char* v = hub_env("HF_HUB_CACHE")) return v;
  if (const char* v = hub_env("HUGGINGFACE_HUB_CACHE")) return v;  // the older name of HF_HUB_CACHE
  return hf_home_dir() / "hub";
}

std::vector<fs::path> hf_cache_dirs() {
  std::vector<fs::path> dirs;
  for (const char* name : {"TRANSFORMERS_CACHE", "PYTORCH_TRANSFORMERS_CACHE", "PYTORCH_PRETRAINED_BERT_CACHE"})
    if (const char* v = hub_env(name)) {
      dirs.emplace_back(v);
      break;
    }
  fs::path hub = hf_hub_cache_dir();
  if (dirs.empty() || dirs.front() != hub) dirs.push_back(std::move(hub));
  return dirs;
}

fs::path hf_download_cache_dir() { return hf_cache_dirs().front(); }

std::string repo_folder_name(std::string_view repo) {
  std::string name = "models--" + std::string(repo);
  for (auto pos = name.find('/'); pos != std::string::npos; pos = name.find('/')) name.replace(pos, 1, "--");
  return name;
}

CacheLookup find_cached_model(const ModelId& id) {
  std::vector<std::string> searched;
  for (const fs::path& cache : hf_cache_dirs()) {
    const fs::path repo_dir = cache / repo_folder_name(id.repo);
    if (!fs::is_directory(repo_dir)) {
      searched.push_back(repo_dir.string());
      continue;
    }
    return lookup_in(repo_dir, id);
  }
  return {std::nullopt, fmt::format("{} does not exist", fmt::join(searched, " nor "))};
}

std::optional<std::string> incomplete_snapshot(const CacheLookup& cached, ModelPart part) {
  if (!cached.snapshot) return "it is not there";
  if (cached.cut_off) return "a download into it stopped before its end";
  if (auto file = first_missing_file(*cached.snapshot, part)) return "it lacks " + *file;
  return std::nullopt;
}

}  // namespace bertkit::core
