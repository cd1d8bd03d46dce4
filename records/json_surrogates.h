#pragma once
// Lone surrogate escapes in JSON text: "\ud800" with no "\udc00".."\udfff" after it (or a low half with
// no high one before it) names no character. Python's json.dumps writes them for text it could not
// decode (surrogateescape) and many scrapers do; nlohmann refuses the whole text. Read as U+FFFD, as
// Python's errors="replace" reads broken UTF-8, the record keeps its place.
#include <cstddef>
#include <string>
#include <string_view>

namespace bertkit::records {

struct LoneSurrogates {
  std::size_t count = 0;  // escapes replaced
  std::size_t first = 0;  // byte offset of the first one
};

// When `json` holds lone surrogate escapes: `out` is `json` with each written "\ufffd" instead (the
// same length, so every byte offset still holds), and the result counts them. Otherwise `out` is left
// alone and the count is 0. Only backslash escapes are looked at: JSON has none outside strings.
LoneSurrogates replace_lone_surrogates(std::string_view json, std::string& out);

}  // namespace bertkit::records
