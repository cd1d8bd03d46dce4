#pragma once
// Which files of a Hub repository bertkit fetches: what it reads to run the model, in each folder that
// holds a part of it (the root, and the module folders sentence-transformers' modules.json names).
#include <string>
#include <string_view>
#include <vector>

namespace bertkit::core {

// The folders of modules.json's modules ("" for the root), the Transformer module's first.
struct ModuleFolders {
  std::string transformer;           // where config.json, the tokenizer and the weights are
  std::vector<std::string> folders;  // every module's folder, the transformer's included
};
// Bad input naming `where` when the file is not a list of modules or a path leaves the repository.
ModuleFolders read_module_folders(std::string_view modules_json, std::string_view where);

struct FileFilters {
  std::vector<std::string> includes;  // fetched as well (glob over the whole path; "dir/" is "dir/*")
  std::vector<std::string> excludes;  // never fetched, even what bertkit would read
};

// From the repository's file list (`siblings`): in each folder config.json, the tokenizer files,
// sentence-transformers' settings and the weights in the best format present -- model.safetensors, else
// its shards (model-NNNNN-of-NNNNN.safetensors with their index), else pytorch_model.bin, else its
// shards -- plus modules.json and config_sentence_transformers.json at the root, plus `includes`,
// minus `excludes` (applied before the weights format is chosen). In the siblings' order.
std::vector<std::string> files_to_fetch(const std::vector<std::string>& siblings, const std::vector<std::string>& folders,
                                        const FileFilters& filters);

// fnmatch(3) as huggingface_hub's filters use it: '*' also crosses '/', a pattern ending in '/' is a folder.
bool glob_matches(std::string_view pattern, std::string_view path);

}  // namespace bertkit::core
