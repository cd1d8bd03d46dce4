#include "records/output_guard.h"

#include "core/error.h"

#include <sys/stat.h>
#include <unistd.h>

namespace bertkit::records {

void refuse_output_over_inputs(const std::vector<std::string>& inputs, const std::string& output) {
  if (output.empty() || output == "-") return;
  struct stat out {};
  if (::stat(output.c_str(), &out) != 0) return;  // a new file cannot be an input
  auto same = [&](const struct stat& in) { return in.st_dev == out.st_dev && in.st_ino == out.st_ino; };
  bool stdin_read = inputs.empty();
  for (const std::string& path : inputs) {
    if (path == "-") {
      stdin_read = true;
      continue;
    }
    struct stat in {};
    if (::stat(path.c_str(), &in) == 0 && same(in))
      usage_error("-o {} is the input {}: writing it would empty the input first; write to another file", output, path);
  }
  struct stat in {};
  if (stdin_read && ::fstat(0, &in) == 0 && S_ISREG(in.st_mode) && same(in))
    usage_error("-o {} is the input read from stdin: writing it would empty the input first; write to another file",
                output);
}

}  // namespace bertkit::records
