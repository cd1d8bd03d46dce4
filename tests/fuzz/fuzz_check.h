#pragma once
// A property that does not hold aborts: libFuzzer reports it as a crash, with the input that broke it.
#include <cstdlib>

namespace bkfuzz {

inline void check(bool ok) {
  if (!ok) std::abort();
}

}  // namespace bkfuzz
