#pragma once
// Which files of a Hub repository bertkit fetches: what it reads to run the model (core/folder_files.h,
// the table the loaders read too), in each folder that holds a part of it (the root, and the module
// folders sentence-transformers' modules.json names).
#include "core/folder_files.h"

#include <string>
#include <string_view>
#include <vector>

namespace bertkit::core {

struct FileFilters {
  std::vector<std::string> includes;  // fetched as well (glob over the whole path; "dir/" is "dir/*")
  std::vector<std::string> excludes;  // never fetched, even what bertkit would read
};

// From the repository's file list (`siblings`): modules.json, config_sentence_transformers.json and
// BGE-M3's heads (kFlagEmbeddingHeads) at the root; in each module's folder its config.json and its weights in the best format present
// (choose_weights, with the shards an index names); in the Transformer module's folder also
// sentence_bert_config.json and the tokenizer files (downloaded_tokenizer_files); plus `includes`, minus
// `excludes` (applied before the weights format and the tokenizer files are chosen). In the siblings' order.
std::vector<std::string> files_to_fetch(const std::vector<std::string>& siblings, const ModuleFolders& modules,
                                        const FileFilters& filters);

// fnmatch(3) as huggingface_hub's filters use it: '*' also crosses '/', a pattern ending in '/' is a folder.
bool glob_matches(std::string_view pattern, std::string_view path);

}  // namespace bertkit::core
