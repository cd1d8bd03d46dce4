#pragma once
// One tokenized input as the encoder takes it.
#include <cstdint>
#include <span>

namespace bertkit::core {

struct TokenSequence {
  std::span<const std::int32_t> ids;
  std::span<const std::int32_t> type_ids;  // empty: all 0; ignored by models without token types
  // Keys from this position on are attended to by no token, though they get outputs of their own
  // (PyLate's unattended [MASK] query expansion: attention_mask 0 at the end); −1: every key is.
  std::int64_t attended_keys = -1;
};

}  // namespace bertkit::core
