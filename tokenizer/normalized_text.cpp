#include "tokenizer/normalized_text.h"

namespace bertkit::tok {

void NormalizedText::push_original(std::string_view original, std::uint32_t base) {
  std::size_t i = 0;
  while (i < original.size()) {
    std::size_t start = i;
    next_code_point(original, i);
    for (std::size_t k = start; k < i; ++k) {
      text.push_back(original[k]);
      begin.push_back(base + static_cast<std::uint32_t>(start));
      end.push_back(base + static_cast<std::uint32_t>(i));
    }
  }
}

}  // namespace bertkit::tok
