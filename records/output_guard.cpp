#include "records/output_guard.h"

#include "core/error.h"

#include <sys/stat.h>
#include <unistd.h>

#include <filesystem>

namespace bertkit::records {

void add_record_inputs(std::vector<ReadFile>& files, const std::vector<std::string>& paths) {
  for (const std::string& path : paths) files.push_back({path, "the input"});
  if (paths.empty()) files.push_back({"-", "the input"});
}

void refuse_output_over_inputs(const std::string& name, const std::string& output, const std::vector<ReadFile>& inputs) {
  if (output == "-") return;
  if (output.empty()) usage_error("{} \"\" names no file: give a file name", name);
  struct stat out {};
  if (::stat(output.c_str(), &out) != 0) {  // a new file cannot be an input, but its folder must exist
    const std::filesystem::path folder = std::filesystem::path(output).parent_path();
    struct stat dir {};
    if (!folder.empty() && (::stat(folder.c_str(), &dir) != 0 || !S_ISDIR(dir.st_mode)))
      usage_error("{} {}: cannot write it: the folder {} does not exist", name, output, folder.string());
    return;
  }
  auto same = [&](const struct stat& in) { return in.st_dev == out.st_dev && in.st_ino == out.st_ino; };
  for (const ReadFile& input : inputs) {
    struct stat in {};
    if (input.path == "-") {
      if (::fstat(0, &in) == 0 && S_ISREG(in.st_mode) && same(in))
        usage_error("{} {} is {} read from stdin: writing it would destroy that input; write to another file", name,
                    output, input.what);
    } else if (::stat(input.path.c_str(), &in) == 0 && same(in)) {
      usage_error("{} {} is {} {}: writing it would destroy that input; write to another file", name, output,
                  input.what, input.path);
    }
  }
}

}  // namespace bertkit::records
