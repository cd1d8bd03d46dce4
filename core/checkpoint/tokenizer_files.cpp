#include "core/checkpoint/tokenizer_files.h"

#include "core/files.h"

namespace bertkit::core {

FolderTokenizer read_folder_tokenizer(const std::filesystem::path& folder) {
  FolderTokenizer out;
  out.choice = choose_tokenizer_files(exists_in(folder));
  out.files.origin = folder.string();
  for (const std::string& name : out.choice.files) {
    const std::filesystem::path path = folder / name;
    *tokenizer_text(out.files, name) = read_text_file(path);
    out.files.paths.push_back(path);
  }
  return out;
}

}  // namespace bertkit::core
