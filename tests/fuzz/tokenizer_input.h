#pragma once
// What the tokenizer targets share: the input's first byte picks the options, the rest is the text
// (invalid UTF-8 repaired, as readers repair it): a pair split at the first tab (bit 0), special tokens
// (bit 1), truncation to 8 tokens (bit 2) with a stride of 2 (bit 3). Higher bits are each target's own.
#include "tokenizer/tokenizer.h"
#include "tokenizer/utf8.h"

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

namespace bkfuzz {

struct TokenizerInput {
  std::uint8_t knobs = 0;
  std::string text;  // owns what `a` and `b` view
  std::string_view a, b;
  bool pair = false;
  bertkit::tok::EncodeOptions options;

  std::optional<std::string_view> second() const { return pair ? std::optional<std::string_view>(b) : std::nullopt; }
};

// Call with size > 0.
inline void read_tokenizer_input(const std::uint8_t* data, std::size_t size, TokenizerInput& in) {
  in.knobs = data[0];
  bertkit::tok::repair_utf8(std::string_view(reinterpret_cast<const char*>(data + 1), size - 1), in.text);
  in.a = in.text;
  in.pair = in.knobs & 1;
  if (in.pair) {
    const std::string_view text = in.text;
    const auto tab = text.find('\t');
    in.a = text.substr(0, tab);
    in.b = tab == std::string_view::npos ? std::string_view() : text.substr(tab + 1);
  }
  in.options.add_special_tokens = in.knobs & 2;
  if (in.knobs & 4) in.options.truncation = bertkit::tok::TruncationParams{.max_length = 8, .stride = in.knobs & 8 ? 2u : 0u};
}

}  // namespace bkfuzz
