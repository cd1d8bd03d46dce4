// A SparseEncoder's 1_SpladePooling/config.json (read_splade_pooling) on arbitrary bytes. Beyond not
// crashing: what it accepts is one of the two strategies and one of the two activations.
#include "core/error.h"
#include "core/loading/retrieval_heads.h"
#include "memory_file.h"

#include <cstdlib>

using namespace bertkit::core;

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  bkfuzz::MemoryFile file(data, size);
  try {
    const SpladePooling p = read_splade_pooling(file.path());
    const bool strategy_ok = p.strategy == SpladeStrategy::Max || p.strategy == SpladeStrategy::Sum;
    const bool activation_ok = p.activation == SpladeActivation::Relu || p.activation == SpladeActivation::Log1pRelu;
    if (!strategy_ok || !activation_ok) std::abort();
  } catch (const bertkit::Error&) {
  }
  return 0;
}
