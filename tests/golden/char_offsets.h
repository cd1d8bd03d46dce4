#pragma once
// A tokenizer golden's offsets are in code points, each sequence's into its own text; bertkit's are bytes.
#include "tokenizer/tokenizer.h"

#include <cstdint>
#include <string_view>
#include <vector>

namespace bktest {

inline std::vector<std::vector<std::uint32_t>> char_offsets(const bertkit::tok::Encoding& e, std::string_view a,
                                                            std::string_view b) {
  std::vector<std::vector<std::uint32_t>> out;
  for (std::size_t i = 0; i < e.size(); ++i) {
    bertkit::tok::Offsets o = e.offsets[i];
    bertkit::tok::to_char_offsets(e.sequence[i] == 1 ? b : a, {&o, 1});
    out.push_back({o.begin, o.end});
  }
  return out;
}

}  // namespace bktest
