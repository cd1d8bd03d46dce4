#pragma once
// What turns an encoder's output into a learned-sparse vector over the vocabulary: a SparseEncoder's
// MLM head with SpladePooling (core/model/splade_head.h) or BGE-M3's sparse_linear head
// (core/model/sparse_linear_head.h).
#include "core/model/encoder.h"
#include "core/model/sparse_vector.h"

#include <cstdint>
#include <span>

namespace bertkit::core {

class SparseHead {
 public:
  virtual ~SparseHead() = default;
  // The sparse vector of sequence `seq` of `out`; `ids` are its token ids, one per position.
  virtual SparseVector forward(const EncoderOutput& out, std::size_t seq, std::span<const std::int32_t> ids) = 0;
};

}  // namespace bertkit::core
