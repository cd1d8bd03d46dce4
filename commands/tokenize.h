#pragma once
// `bertkit tokenize`: texts (or pairs) to encodings, and ids back to text, a batch at a time.
#include "tokenizer/padding.h"
#include "tokenizer/tokenizer.h"

#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

namespace bertkit::cmd {

struct TextInput {
  std::string_view text;
  std::optional<std::string_view> pair;
};

struct TokenizeOptions {
  tok::EncodeOptions encode;
  tok::PaddingParams padding;
};

// Encodes every input (in parallel over OpenMP threads) and pads the batch; results in input order.
std::vector<tok::Encoding> tokenize_batch(const tok::Tokenizer& tokenizer, const TokenizeOptions& options,
                                          std::span<const TextInput> inputs);

// Parses a line of ids ("101 7592 102", commas or a JSON array's brackets also accepted).
std::vector<std::int32_t> parse_ids(std::string_view line);

}  // namespace bertkit::cmd
