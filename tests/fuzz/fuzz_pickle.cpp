// The pickle interpreter (core/checkpoint/pickle.h) on arbitrary bytes, then state_dict_tensors on what
// it builds. Beyond not crashing: the end position is past the start and inside the input.
#include "core/checkpoint/pickle.h"
#include "core/error.h"

#include <cstdlib>

using namespace bertkit::core;

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  std::span<const std::byte> bytes(reinterpret_cast<const std::byte*>(data), size);
  std::size_t pos = 0;
  try {
    Unpickled pickle = unpickle(bytes, pos, "fuzz/data.pkl");
    if (pos == 0 || pos > size || !pickle.root) std::abort();
    state_dict_tensors(pickle, "fuzz/data.pkl");
  } catch (const bertkit::Error&) {
  }
  return 0;
}
