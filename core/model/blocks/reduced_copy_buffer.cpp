#include "core/model/blocks/reduced_copy_buffer.h"

namespace bertkit::core {

ReducedCopy ReducedCopyBuffer::write_for(const Linear* reader, std::int64_t rows, std::int64_t width) {
  const auto values = static_cast<std::size_t>(rows * width);
  copy_ = {};
  if (reader && reader->reads_s8())
    copy_.s8 = {s8_.reserve(values), scales_.reserve(static_cast<std::size_t>(rows))};
  else if (reader && reader->reads_bf16())
    copy_.bf16 = bf16_.reserve(values);
  return copy_;
}

}  // namespace bertkit::core
