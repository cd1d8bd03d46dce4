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

// Parses a line of ids ("101 7592 102", commas or a JSON array's brackets also accepted).
std::vector<std::int32_t> parse_ids(std::string_view line);

}  // namespace bertkit::cmd
