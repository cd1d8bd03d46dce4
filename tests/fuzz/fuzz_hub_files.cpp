// What `bertkit download` reads from the Hub before fetching (core/hub): a modules.json, the file
// list of the revision API, and the model id itself. The input is modules.json, a NUL, then one
// repository path per line; its first line is also read as a model id. Beyond not crashing: module
// folders stay inside the repository and include the transformer's, the files chosen are repository
// files, each once, in the repository's order, and an accepted id can name no path outside the cache.
#include "fuzz_check.h"

#include "core/error.h"
#include "core/hub/hub_cache.h"
#include "core/hub/hub_files.h"

#include <algorithm>
#include <set>
#include <string>
#include <string_view>
#include <vector>

using namespace bertkit::core;

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string_view input(reinterpret_cast<const char*>(data), size);
  const auto nul = input.find('\0');
  const std::string_view modules = input.substr(0, nul);
  std::vector<std::string> siblings;
  if (nul != std::string_view::npos) {
    std::string_view rest = input.substr(nul + 1);
    while (!rest.empty()) {
      const auto end = rest.find('\n');
      siblings.emplace_back(rest.substr(0, end));
      rest = end == std::string_view::npos ? std::string_view() : rest.substr(end + 1);
    }
  }
  if (!siblings.empty())
    if (auto id = parse_model_id(siblings.front())) {
      bkfuzz::check(id->repo.find("..") == std::string::npos && !id->repo.starts_with('/') && safe_revision(id->revision));
      bkfuzz::check(repo_folder_name(id->repo).find('/') == std::string::npos);
    }
  ModuleFolders folders = root_transformer();
  try {
    const ModuleFolders m = read_module_folders(modules, "fuzz/modules.json");
    auto transformer = [&](const ModuleFolder& f) { return f.folder == m.transformer; };
    bkfuzz::check(std::any_of(m.modules.begin(), m.modules.end(), transformer));
    for (const auto& f : m.modules) bkfuzz::check(f.folder.find("..") == std::string::npos && !f.folder.starts_with('/'));
    folders = m;
  } catch (const bertkit::Error&) {
  }
  const std::vector<std::string> chosen = files_to_fetch(siblings, folders, {{"*.onnx"}, {"*.h5"}});
  std::set<std::string> seen;
  auto at = siblings.begin();
  for (const auto& file : chosen) {
    bkfuzz::check(seen.insert(file).second || std::count(siblings.begin(), siblings.end(), file) > 1);
    at = std::find(at, siblings.end(), file);
    bkfuzz::check(at != siblings.end());
    bkfuzz::check(!file.ends_with(".h5"));  // excluded, whatever else matches
    ++at;
  }
  return 0;
}
