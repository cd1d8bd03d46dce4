#include "records/json_members.h"

#include <cstring>

namespace bertkit::records {

namespace {

constexpr std::size_t kNone = std::string_view::npos;

bool is_space(char c) { return c == ' ' || c == '\t' || c == '\n' || c == '\r'; }

std::size_t skip_space(std::string_view s, std::size_t i) {
  while (i < s.size() && is_space(s[i])) ++i;
  return i;
}

// Past the closing quote of the string whose opening quote is s[i]; kNone if it has none. Texts are
// most of a line, so the quotes are found with memchr, not byte by byte.
std::size_t string_end(std::string_view s, std::size_t i) {
  for (std::size_t from = i + 1; from < s.size();) {
    const void* quote = std::memchr(s.data() + from, '"', s.size() - from);
    if (!quote) return kNone;
    const auto at = static_cast<std::size_t>(static_cast<const char*>(quote) - s.data());
    std::size_t backslashes = 0;  // an odd number before it escapes the quote
    while (at - backslashes > from && s[at - backslashes - 1] == '\\') ++backslashes;
    if (backslashes % 2 == 0) return at + 1;
    from = at + 1;
  }
  return kNone;
}

// Past the value starting at s[i]; kNone if it does not end in `s`.
std::size_t value_end(std::string_view s, std::size_t i) {
  if (i >= s.size()) return kNone;
  if (s[i] == '"') return string_end(s, i);
  if (s[i] == '{' || s[i] == '[') {
    std::size_t depth = 0;
    while (i < s.size()) {
      const char c = s[i];
      if (c == '"') {
        i = string_end(s, i);
        if (i == kNone) return kNone;
        continue;
      }
      ++i;
      if (c == '{' || c == '[') ++depth;
      else if ((c == '}' || c == ']') && --depth == 0) return i;
    }
    return kNone;
  }
  // A number, true, false or null: up to what follows a value.
  const std::size_t start = i;
  while (i < s.size() && !is_space(s[i]) && s[i] != ',' && s[i] != '}' && s[i] != ']') ++i;
  return i == start ? kNone : i;
}

}  // namespace

bool scan_json_members(std::string_view s, std::vector<JsonMember>& members) {
  members.clear();
  std::size_t i = skip_space(s, 0);
  if (i == s.size() || s[i] != '{') return false;
  i = skip_space(s, i + 1);
  if (i < s.size() && s[i] == '}') return skip_space(s, i + 1) == s.size();
  for (;;) {
    JsonMember m;
    if (i == s.size() || s[i] != '"') return false;
    m.name_begin = i;
    m.name_end = i = string_end(s, i);
    if (i == kNone) return false;
    i = skip_space(s, i);
    if (i == s.size() || s[i] != ':') return false;
    m.value_begin = i = skip_space(s, i + 1);
    m.value_end = i = value_end(s, i);
    if (i == kNone) return false;
    members.push_back(m);
    i = skip_space(s, i);
    if (i == s.size()) return false;
    if (s[i] == '}') return skip_space(s, i + 1) == s.size();
    if (s[i] != ',') return false;
    i = skip_space(s, i + 1);
  }
}

}  // namespace bertkit::records
