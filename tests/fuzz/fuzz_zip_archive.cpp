// The zip reader (core/checkpoint/zip_archive.h) alone, then the whole torch checkpoint reader (zip or
// legacy, told apart by content: zip archive + pickle + storages) on the same bytes. Beyond not crashing:
// every entry's data lies inside the file and find() returns it by name.
#include "core/checkpoint/zip_archive.h"
#include "core/error.h"
#include "memory_file.h"
#include "raw_checkpoint_checks.h"

#include <cstdlib>

using namespace bertkit::core;

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  bkfuzz::MemoryFile input(data, size);
  auto file = MappedFile::open(input.path());
  try {
    ZipArchive zip(file);
    for (const auto& entry : zip.entries()) {
      if (entry.offset > size || entry.size > size - entry.offset) std::abort();
      const auto* found = zip.find(entry.name);
      if (!found || found->name != entry.name) std::abort();
      if (zip.data(entry).size() != entry.size) std::abort();
    }
  } catch (const bertkit::Error&) {
  }
  try {
    RawCheckpoint raw = read_torch_checkpoint(input.path());
    bkfuzz::check_tensors(raw, size);
  } catch (const bertkit::Error&) {
  }
  return 0;
}
