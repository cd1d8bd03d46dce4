// Byte offsets into a text turned into code point offsets (to_char_offsets, tokenizer/tokenizer.h).
#include "tokenizer/tokenizer.h"
#include "tokenizer/utf8.h"

#include <algorithm>
#include <cstdint>

namespace bertkit::tok {

void to_char_offsets(std::string_view text, std::span<Offsets> offsets) {
  if (ascii_prefix(text) == text.size()) return;
  // A cursor (byte, code points before it) moved to each offset in turn: tokens come in text order,
  // so it walks the text about once, with no table a byte long (a 300 MB line would need 1.2 GB).
  std::size_t byte = 0;
  std::uint32_t chars = 0;
  auto is_lead = [&](std::size_t i) { return (static_cast<unsigned char>(text[i]) & 0xC0) != 0x80; };
  auto to_chars = [&](std::uint32_t offset) {
    const std::size_t target = std::min<std::size_t>(offset, text.size());
    for (; byte < target; ++byte) chars += is_lead(byte);
    for (; byte > target; --byte) chars -= is_lead(byte - 1);
    return chars;
  };
  for (Offsets& o : offsets) {
    if (o.begin == 0 && o.end == 0) continue;
    o.begin = to_chars(o.begin);
    o.end = to_chars(o.end);
  }
}

}  // namespace bertkit::tok
