#pragma once
// The one rule every output a user names obeys before it is opened: an input is never overwritten. An
// output opened with O_TRUNC over one of the files the command reads (its -i files, the model's files,
// --calibration, --context-file, ...) would empty it, and a converted file renamed over a model file
// would replace it: refused (a usage error naming both) before anything is opened for writing. Files
// are compared by device and inode, so a symlink, a hard link or ./name is the same file too; an
// input read from stdin counts when stdin is a regular file (`bertkit embed -o x.txt < x.txt`). The
// same check refuses an empty name and a folder that does not exist, naming the file as given.
#include <string>
#include <vector>

namespace bertkit::records {

// A file the command reads, and how a message names it ("the input", "the model's file", "the
// --calibration file").
struct ReadFile {
  std::string path;  // "-": stdin
  std::string what;
};

// Adds the records' input paths as given ("-", or none: stdin) to `files`.
void add_record_inputs(std::vector<ReadFile>& files, const std::vector<std::string>& paths);

// `output`: what `name` names ("-o", "convert: DST"); "-" is stdout (nothing to check).
void refuse_output_over_inputs(const std::string& name, const std::string& output, const std::vector<ReadFile>& inputs);

}  // namespace bertkit::records
