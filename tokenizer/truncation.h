#pragma once
// Truncation to a length budget, as Hugging Face's fast tokenizer does it (windows with a stride), and as
// the slow Python tokenizer does it (--compat python: one token at a time from the longer text).
#include "tokenizer/encoding.h"

#include <cstddef>
#include <string_view>

namespace bertkit::tok {

enum class TruncationStrategy { LongestFirst, OnlyFirst, OnlySecond };
enum class Side { Right, Left };

struct TruncationParams {
  std::size_t max_length = 512;  // special tokens included
  TruncationStrategy strategy = TruncationStrategy::LongestFirst;
  std::size_t stride = 0;
  Side side = Side::Right;
};

TruncationStrategy parse_truncation_strategy(std::string_view name);  // throws Usage on an unknown name

// Cuts `e` to max_len tokens; what is cut goes into e.overflowing as windows overlapping by `stride`.
void truncate_encoding(Encoding& e, std::size_t max_len, std::size_t stride, Side side);

// Fast-tokenizer truncation of A (and B) to `budget` tokens (special tokens already subtracted).
void truncate_rust(Encoding& a, Encoding* b, std::size_t budget, const TruncationParams& params);
// Slow-tokenizer truncation: no windows.
void truncate_python(Encoding& a, Encoding* b, std::size_t budget, const TruncationParams& params);

}  // namespace bertkit::tok
