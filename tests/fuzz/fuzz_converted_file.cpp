// bertkit's converted-file loader (core/loading/converted_file.h) on arbitrary bytes: the header,
// its embedded config.json and tokenizer files, the tensor table and the trailer. The first byte picks
// loading (header checks only) or `convert --check` (also the checksum); the rest is the file.
#include "core/loading/converted_file.h"
#include "core/error.h"
#include "memory_file.h"

using namespace bertkit::core;

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  if (size == 0) return 0;
  const bkfuzz::KnobbedFile in(data, size);
  try {
    if (in.knobs & 1) check_converted_file(in.file.path());
    else load_converted_file(in.file.path(), "fuzz.bk");
  } catch (const bertkit::Error&) {
  }
  return 0;
}
