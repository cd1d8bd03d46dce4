#include "commands/encoding_text.h"

#include <fmt/compile.h>
#include <fmt/format.h>

#include <algorithm>

namespace bertkit::cmd {

namespace {

constexpr std::size_t kDigits = 11;  // "-2147483648"
constexpr std::size_t kShortTexts = 32;  // tokens up to this long: room for the longest is cheap

// Appends at most `most` bytes that `write` puts at the pointer it gets, returning their end. The
// string is grown (and zeroed) once, then cut back to what was written.
template <typename Write>
void append_at_most(std::string& out, std::size_t most, Write&& write) {
  const std::size_t at = out.size();
  out.resize(at + most);
  char* end = write(out.data() + at);
  out.resize(static_cast<std::size_t>(end - out.data()));
}

// Digits written in place by fmt's compiled format: no format string parsed, no buffer copied.
template <typename Int>
char* write_int(char* out, Int x) {
  return fmt::format_to(out, FMT_COMPILE("{}"), x);
}

// Type ids and attention masks are 0s and 1s: when all are single digits they take two bytes of room
// each (the room is zeroed first) and are written without fmt's digit count.
template <typename Int>
void append_small_ints(std::string& out, std::span<const Int> values, char separator) {
  const bool digits = std::all_of(values.begin(), values.end(), [](Int x) { return x >= 0 && x < 10; });
  append_at_most(out, values.size() * (digits ? 2 : kDigits + 1), [&](char* p) {
    for (std::size_t i = 0; i < values.size(); ++i) {
      if (i) *p++ = separator;
      if (digits) *p++ = static_cast<char>('0' + values[i]);
      else p = write_int(p, values[i]);
    }
    return p;
  });
}

}  // namespace

void append_joined(std::string& out, std::span<const std::int32_t> values, char separator) {
  append_small_ints(out, values, separator);
}

void append_joined(std::string& out, std::span<const std::uint8_t> values, char separator) {
  append_small_ints(out, values, separator);
}

void append_joined(std::string& out, std::span<const std::int32_t> ids, const TokenTexts& texts, char separator) {
  // Room for the longest text each time, unless some text is long (byte-level BPE has 256-byte tokens):
  // then for the texts' own lengths, added up in a pass of their own.
  std::size_t room = ids.size() * (texts.longest() + 1) + TokenTexts::kSlack;
  if (texts.longest() > kShortTexts) {
    room = ids.size() + TokenTexts::kSlack;
    for (auto id : ids) room += texts.size(id);
  }
  append_at_most(out, room, [&](char* p) { return texts.write_joined(p, ids, separator); });
}

void append_json_pairs(std::string& out, std::span<const tok::Offsets> offsets) {
  // Room for the largest offset's digits, not for any 32-bit number's: the room is zeroed first.
  std::uint32_t largest = 0;
  for (const auto& o : offsets) largest = std::max({largest, o.begin, o.end});
  const std::size_t digits = fmt::format_int(largest).size();
  append_at_most(out, offsets.size() * (2 * digits + 4), [&](char* p) {
    for (std::size_t i = 0; i < offsets.size(); ++i) {
      if (i) *p++ = ',';
      *p++ = '[';
      p = write_int(p, offsets[i].begin);
      *p++ = ',';
      p = write_int(p, offsets[i].end);
      *p++ = ']';
    }
    return p;
  });
}

}  // namespace bertkit::cmd
