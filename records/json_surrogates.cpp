#include "records/json_surrogates.h"

#include <cstdint>
#include <optional>

namespace bertkit::records {

namespace {

// The code unit of the "\uXXXX" escape at s[i], if one is there.
std::optional<std::uint32_t> unicode_escape(std::string_view s, std::size_t i) {
  if (i + 6 > s.size() || s[i] != '\\' || s[i + 1] != 'u') return std::nullopt;
  std::uint32_t unit = 0;
  for (std::size_t k = i + 2; k < i + 6; ++k) {
    const char c = s[k];
    const int digit = c >= '0' && c <= '9' ? c - '0' : c >= 'a' && c <= 'f' ? c - 'a' + 10 : c >= 'A' && c <= 'F' ? c - 'A' + 10 : -1;
    if (digit < 0) return std::nullopt;  // not an escape the parser takes: it reports it
    unit = unit * 16 + static_cast<std::uint32_t>(digit);
  }
  return unit;
}

bool high_half(std::uint32_t unit) { return unit >= 0xD800 && unit <= 0xDBFF; }
bool low_half(std::uint32_t unit) { return unit >= 0xDC00 && unit <= 0xDFFF; }

}  // namespace

LoneSurrogates replace_lone_surrogates(std::string_view json, std::string& out) {
  LoneSurrogates found;
  for (std::size_t i = json.find('\\'); i != std::string_view::npos; i = json.find('\\', i)) {
    const auto unit = unicode_escape(json, i);
    if (!unit) {
      i += 2;  // "\\" or "\n": the escaped byte is not the start of another escape
      continue;
    }
    if (high_half(*unit)) {
      const auto next = unicode_escape(json, i + 6);
      if (next && low_half(*next)) {
        i += 12;
        continue;
      }
    } else if (!low_half(*unit)) {
      i += 6;
      continue;
    }
    if (found.count++ == 0) {
      found.first = i;
      out.assign(json);
    }
    out.replace(i, 6, "\\ufffd");
    i += 6;
  }
  return found;
}

}  // namespace bertkit::records
