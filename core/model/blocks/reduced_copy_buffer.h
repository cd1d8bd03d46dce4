#pragma once
// Rows a norm writes, also kept in the type the layer that reads them next computes in (bf16 or s8):
// the norm writes them in its own pass over each row (a ReducedCopy), so that the reading layer does
// not round or quantise them in a pass of its own. A block keeps two (LayerScratch): hidden's rows,
// within a block (a post-norm read by the first feed-forward layer) and across blocks (a layer's last
// norm read by the next layer's QKV projection), and a pre-norm's output.
#include "core/ops/buffer.h"
#include "core/ops/linear.h"
#include "core/ops/reduced_activations.h"

#include <cstdint>

namespace bertkit::core {

class ReducedCopyBuffer {
 public:
  // The copy for a norm to write as it writes rows [rows, width], in the type `reader` reads (nothing
  // when it reads f32, or with no reader: the rows are then read by nobody but in f32). It may be the
  // copy read() gave: an op may read and rewrite it in place, row by row.
  ReducedCopy write_for(const Linear* reader, std::int64_t rows, std::int64_t width);
  // The copy last written; empty after clear().
  ReducedCopy read() const { return copy_; }
  void clear() { copy_ = {}; }

 private:
  ReducedCopy copy_;
  Bf16Buffer bf16_;
  AlignedBuffer<std::int8_t> s8_;
  FloatBuffer scales_;
};

}  // namespace bertkit::core
