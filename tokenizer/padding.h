#pragma once
// Padding a batch of encodings to the longest one or to a fixed length.
#include "tokenizer/encoding.h"
#include "tokenizer/truncation.h"

#include <cstdint>
#include <span>
#include <string_view>

namespace bertkit::tok {

enum class PaddingStrategy { None, Longest, MaxLength };

PaddingStrategy parse_padding_strategy(std::string_view name);  // throws Usage on an unknown name

struct PaddingParams {
  PaddingStrategy strategy = PaddingStrategy::None;
  std::size_t length = 0;  // for MaxLength
  Side side = Side::Right;
  std::int32_t pad_id = 0;
  std::int32_t pad_type_id = 0;
};

// Pads every encoding of the batch (and its overflowing windows) in place.
void pad_batch(std::span<Encoding> batch, const PaddingParams& params);

}  // namespace bertkit::tok
