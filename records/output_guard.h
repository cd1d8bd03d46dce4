#pragma once
// An output opened with O_TRUNC over one of the inputs empties it before a record is read: the guard
// refuses that (a usage error naming both) before the output is opened. Files are compared by device
// and inode, so a symlink, a hard link or ./name is the same file too; an input read from stdin counts
// when stdin is a regular file (`bertkit embed -o x.txt < x.txt`).
#include <string>
#include <vector>

namespace bertkit::records {

// `inputs`: the input paths as given ("-" or none: stdin); `output`: "-" or "" is stdout.
void refuse_output_over_inputs(const std::vector<std::string>& inputs, const std::string& output);

}  // namespace bertkit::records
