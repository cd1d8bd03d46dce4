#include "core/hub/hub_files.h"

#include "core/error.h"

#include <nlohmann/json.hpp>

#include <fnmatch.h>

#include <algorithm>
#include <regex>
#include <set>

namespace bertkit::core {

namespace {

// The shards of a sharded checkpoint: PREFIX-00001-of-00003.EXT.
bool is_shard(std::string_view name, const std::string& prefix, const std::string& extension) {
  static const std::regex shard(R"(^(.*)-\d{5}-of-\d{5}\.(.*)$)");
  std::cmatch m;
  const std::string text(name);
  return std::regex_match(text.c_str(), m, shard) && m[1] == prefix && m[2] == extension;
}

std::string folder_of(std::string_view path) {
  const auto slash = path.rfind('/');
  return slash == std::string_view::npos ? std::string() : std::string(path.substr(0, slash + 1));
}

std::string base_name(std::string_view path) {
  const auto slash = path.rfind('/');
  return std::string(slash == std::string_view::npos ? path : path.substr(slash + 1));
}

}  // namespace

bool glob_matches(std::string_view pattern, std::string_view path) {
  std::string p(pattern);
  if (p.ends_with('/')) p += '*';
  return ::fnmatch(p.c_str(), std::string(path).c_str(), 0) == 0;
}

ModuleFolders read_module_folders(std::string_view modules_json, std::string_view where) {
  const nlohmann::json modules = nlohmann::json::parse(modules_json, nullptr, false);
  if (!modules.is_array()) bad_input("{}: not a list of modules", where);
  ModuleFolders out;
  bool have_transformer = false;
  for (const auto& m : modules) {
    if (!m.is_object() || !m.value("path", nlohmann::json()).is_string())
      bad_input("{}: a module without a \"path\"", where);
    const std::string path = m["path"].get<std::string>();
    if (path.starts_with('/') || path.find("..") != std::string::npos)
      bad_input("{}: module path \"{}\" leaves the repository", where, path);
    const std::string folder = path.empty() || path.ends_with('/') ? path : path + "/";
    if (m.value("type", "") == "sentence_transformers.models.Transformer" && !have_transformer) {
      out.transformer = folder;
      have_transformer = true;
    }
    if (std::find(out.folders.begin(), out.folders.end(), folder) == out.folders.end()) out.folders.push_back(folder);
  }
  if (std::find(out.folders.begin(), out.folders.end(), out.transformer) == out.folders.end())
    out.folders.insert(out.folders.begin(), out.transformer);
  return out;
}

std::vector<std::string> files_to_fetch(const std::vector<std::string>& siblings, const std::vector<std::string>& folders,
                                        const FileFilters& filters) {
  static const std::set<std::string> kSettings = {"config.json", "vocab.txt", "tokenizer.json", "tokenizer_config.json",
                                                  "special_tokens_map.json", "sentence_bert_config.json"};
  auto excluded = [&](const std::string& path) {
    return std::any_of(filters.excludes.begin(), filters.excludes.end(), [&](const auto& g) { return glob_matches(g, path); });
  };
  std::vector<std::string> candidates;
  for (const auto& s : siblings)
    if (!excluded(s)) candidates.push_back(s);

  std::set<std::string> wanted;
  for (const auto& s : candidates) {
    if (folder_of(s).empty() && (s == "modules.json" || s == "config_sentence_transformers.json")) wanted.insert(s);
    if (std::find(folders.begin(), folders.end(), folder_of(s)) != folders.end() && kSettings.count(base_name(s)))
      wanted.insert(s);
    for (const auto& g : filters.includes)
      if (glob_matches(g, s)) wanted.insert(s);
  }
  // The weights of each folder, in the order the loader prefers them.
  for (const std::string& folder : folders) {
    auto present = [&](const std::string& name) {
      return std::find(candidates.begin(), candidates.end(), folder + name) != candidates.end();
    };
    auto take_shards = [&](const std::string& prefix, const std::string& extension) {
      for (const auto& s : candidates)
        if (folder_of(s) == folder && is_shard(base_name(s), prefix, extension)) wanted.insert(s);
    };
    if (present("model.safetensors")) {
      wanted.insert(folder + "model.safetensors");
    } else if (present("model.safetensors.index.json")) {
      wanted.insert(folder + "model.safetensors.index.json");
      take_shards("model", "safetensors");
    } else if (present("pytorch_model.bin")) {
      wanted.insert(folder + "pytorch_model.bin");
    } else if (present("pytorch_model.bin.index.json")) {
      wanted.insert(folder + "pytorch_model.bin.index.json");
      take_shards("pytorch_model", "bin");
    }
  }
  std::vector<std::string> out;
  for (const auto& s : candidates)
    if (wanted.count(s)) out.push_back(s);
  return out;
}

}  // namespace bertkit::core
