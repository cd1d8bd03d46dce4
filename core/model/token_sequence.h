#pragma once
// One tokenized input as the encoder takes it.
#include <cstdint>
#include <span>

namespace bertkit::core {

struct TokenSequence {
  std::span<const std::int32_t> ids;
  std::span<const std::int32_t> type_ids;  // empty: all 0; ignored by models without token types
};

}  // namespace bertkit::core
