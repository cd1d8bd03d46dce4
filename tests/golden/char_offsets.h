#pragma once
// A tokenizer golden's offsets are in code points, each sequence's into its own text; bertkit's are bytes.
#include "tokenizer/tokenizer.h"

#include <cstdint>
#include <span>
#include <string_view>
#include <vector>

namespace bktest {

// The offsets as [begin, end] pairs, as the goldens store them.
inline std::vector<std::vector<std::uint32_t>> offset_pairs(std::span<const bertkit::tok::Offsets> offsets) {
  std::vector<std::vector<std::uint32_t>> out;
  for (const auto& o : offsets) out.push_back({o.begin, o.end});
  return out;
}

// The offsets in code points of `a` for the first sequence (and the special tokens), of `b` for the second.
inline std::vector<std::vector<std::uint32_t>> char_offsets(const bertkit::tok::Encoding& e, std::string_view a,
                                                            std::string_view b) {
  std::vector<bertkit::tok::Offsets> first, second;
  for (std::size_t i = 0; i < e.size(); ++i) (e.sequence[i] == 1 ? second : first).push_back(e.offsets[i]);
  bertkit::tok::to_char_offsets(a, first);
  bertkit::tok::to_char_offsets(b, second);
  std::vector<bertkit::tok::Offsets> merged(e.size());
  std::size_t fi = 0, si = 0;
  for (std::size_t i = 0; i < e.size(); ++i) merged[i] = e.sequence[i] == 1 ? second[si++] : first[fi++];
  return offset_pairs(merged);
}

}  // namespace bktest
