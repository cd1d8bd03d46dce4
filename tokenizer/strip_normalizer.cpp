#include "tokenizer/strip_normalizer.h"

#include "tokenizer/unicode.h"
#include "tokenizer/utf8.h"

namespace bertkit::tok {

void StripNormalizer::normalize(std::string_view original, std::uint32_t base, NormalizedText& out) const {
  std::size_t begin = 0, end = original.size();
  if (spec_.left) {
    while (begin < end) {
      std::size_t next = begin;
      if (!is_white_space(next_code_point(original, next))) break;
      begin = next;
    }
  }
  if (spec_.right) {
    while (end > begin) {
      std::size_t start = end - 1;
      while (start > begin && (static_cast<unsigned char>(original[start]) & 0xC0) == 0x80) --start;
      std::size_t i = start;
      if (!is_white_space(next_code_point(original, i))) break;
      end = start;
    }
  }
  for (std::size_t i = begin; i < end;) {
    const std::size_t b = i;
    const char32_t c = next_code_point(original, i);
    if (c < 0x80) {
      *out.append_one_to_one(1, base + static_cast<std::uint32_t>(b)) = static_cast<char>(c);
    } else {
      out.push(c, base + static_cast<std::uint32_t>(b), base + static_cast<std::uint32_t>(i));
    }
  }
}

}  // namespace bertkit::tok
