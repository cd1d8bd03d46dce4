#pragma once
// What every checkpoint reader must give for any file it accepts: each tensor's size matches its shape
// and dtype, is no larger than the file its bytes came from, and its first and last bytes are readable
// (ASan or a fault catches a view that points outside the reader's map or buffers).
#include "core/checkpoint/raw_checkpoint.h"

#include <cstdlib>

namespace bkfuzz {

inline void check_tensors(const bertkit::core::RawCheckpoint& raw, std::size_t file_size) {
  for (const auto& t : raw.tensors) {
    const auto& v = t.view;
    if (v.nbytes != bertkit::core::checked_nbytes(v.shape, v.dtype, t.name) || v.nbytes > file_size) std::abort();
    if (v.nbytes == 0) continue;
    volatile std::byte first = v.data[0], last = v.data[v.nbytes - 1];
    (void)first;
    (void)last;
  }
}

}  // namespace bkfuzz
