#include "core/hub/hub_files.h"

#include <fnmatch.h>

#include <algorithm>
#include <set>

namespace bertkit::core {

namespace {

std::string folder_of(std::string_view path) {
  const auto slash = path.rfind('/');
  return slash == std::string_view::npos ? std::string() : std::string(path.substr(0, slash + 1));
}

std::string base_name(std::string_view path) {
  const auto slash = path.rfind('/');
  return std::string(slash == std::string_view::npos ? path : path.substr(slash + 1));
}

// The weights of one folder, in the format the loader would read.
void add_weights(const std::vector<std::string>& candidates, const std::string& folder, const FileExists& exists,
                 std::set<std::string>& wanted) {
  const WeightsChoice weights = choose_weights(exists);
  if (!weights.format) return;
  wanted.insert(folder + std::string(weights.file()));
  if (weights.layout == WeightsLayout::Sharded)
    for (const auto& s : candidates)
      if (folder_of(s) == folder && is_shard_of(*weights.format, base_name(s))) wanted.insert(s);
}

}  // namespace

bool glob_matches(std::string_view pattern, std::string_view path) {
  std::string p(pattern);
  if (p.ends_with('/')) p += '*';
  return ::fnmatch(p.c_str(), std::string(path).c_str(), 0) == 0;
}

std::vector<std::string> files_to_fetch(const std::vector<std::string>& siblings, const ModuleFolders& modules,
                                        const FileFilters& filters) {
  auto excluded = [&](const std::string& path) {
    return std::any_of(filters.excludes.begin(), filters.excludes.end(), [&](const auto& g) { return glob_matches(g, path); });
  };
  std::vector<std::string> candidates;
  for (const auto& s : siblings)
    if (!excluded(s)) candidates.push_back(s);
  const std::set<std::string> present(candidates.begin(), candidates.end());

  std::set<std::string> wanted;
  for (std::string_view root_file : {kModulesJson, kSentenceTransformersConfig})
    if (present.count(std::string(root_file))) wanted.emplace(root_file);
  // FlagEmbedding loads BGE-M3's heads from the repository's root, whatever modules.json says.
  for (std::string_view head : kFlagEmbeddingHeads)
    if (present.count(std::string(head))) wanted.emplace(head);
  for (const ModuleFolder& m : modules.modules) {
    const FileExists exists = [&](std::string_view name) { return present.count(m.folder + std::string(name)) > 0; };
    auto take = [&](std::string_view name) {
      if (exists(name)) wanted.insert(m.folder + std::string(name));
    };
    take(kConfig);
    add_weights(candidates, m.folder, exists, wanted);
    if (m.folder != modules.transformer) continue;
    take(kSentenceBertConfig);
    for (const std::string& file : downloaded_tokenizer_files(exists)) wanted.insert(m.folder + file);
  }
  for (const auto& s : candidates)
    for (const auto& g : filters.includes)
      if (glob_matches(g, s)) wanted.insert(s);
  std::vector<std::string> out;
  for (const auto& s : candidates)
    if (wanted.count(s)) out.push_back(s);
  return out;
}

}  // namespace bertkit::core
