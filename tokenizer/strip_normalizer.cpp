#include "tokenizer/strip_normalizer.h"

#include "tokenizer/unicode.h"
#include "tokenizer/utf8.h"

namespace bertkit::tok {

void StripNormalizer::normalize(std::string_view original, std::uint32_t base, NormalizedText& out) const {
  const auto [begin, end] = trimmed_span(original, spec_.left, spec_.right, is_white_space);
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
