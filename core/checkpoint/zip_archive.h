#pragma once
// A reader for the uncompressed (STORED) zip archives torch.save writes: the central directory is
// parsed and checked against the file, entry data are spans of the memory map. Compressed entries,
// names with ".." or an absolute path, and sizes past the end of the file are refused.
#include "core/files.h"

#include <memory>
#include <span>
#include <string>
#include <string_view>
#include <vector>

namespace bertkit::core {

class ZipArchive {
 public:
  struct Entry {
    std::string name;
    std::size_t offset = 0;  // of the data in the file
    std::size_t size = 0;
  };

  explicit ZipArchive(std::shared_ptr<const MappedFile> file);

  const std::vector<Entry>& entries() const { return entries_; }
  const Entry* find(std::string_view name) const;
  std::span<const std::byte> data(const Entry& entry) const;

 private:
  std::shared_ptr<const MappedFile> file_;
  std::vector<Entry> entries_;
};

}  // namespace bertkit::core
