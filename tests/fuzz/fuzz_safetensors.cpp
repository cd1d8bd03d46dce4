// The safetensors reader (core/checkpoint/safetensors.cpp) on arbitrary bytes. Beyond not crashing:
// every tensor of a file it accepts has the size its shape and dtype give, and fits in the file.
#include "core/error.h"
#include "memory_file.h"
#include "raw_checkpoint_checks.h"

using namespace bertkit::core;

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  bkfuzz::MemoryFile input(data, size);
  try {
    RawCheckpoint raw = read_safetensors(input.path());
    bkfuzz::check_tensors(raw, size);
  } catch (const bertkit::Error&) {
  }
  return 0;
}
