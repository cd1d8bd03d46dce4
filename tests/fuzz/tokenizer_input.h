#pragma once
// What the tokenizer targets share: the input's first byte picks the options, the rest is the text
// (invalid UTF-8 repaired, as readers repair it): a pair split at the first tab (bit 0), special tokens
// (bit 1), truncation to 8 tokens (bit 2) with a stride of 2 (bit 3). Higher bits are each target's own.
// And what every target checks of an encoding.
#include "core/error.h"
#include "fuzz_check.h"
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

// False for an empty input (no knobs byte): nothing to run.
inline bool read_tokenizer_input(const std::uint8_t* data, std::size_t size, TokenizerInput& in) {
  if (size == 0) return false;
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
  return true;
}

// How far back a token's start may be from the tokens before it in the same sequence.
enum class OffsetOrder {
  AfterPreviousEnd,    // not before the previous token's end, but the pieces of one character share its span
  AfterPreviousBegin,  // not before the previous token's start
  Any,                 // anywhere in the text
};

// Ids in the vocabulary, every offset inside its own text and in
// `order`, in the encoding and in every window.
inline void check_encoding(const bertkit::tok::Tokenizer& t, const bertkit::tok::Encoding& e, std::string_view a,
                           std::string_view b, OffsetOrder order) {
  check(e.ids.size() == e.offsets.size() && e.ids.size() == e.sequence.size());
  std::uint32_t last_begin[2] = {0, 0}, last_end[2] = {0, 0};
  for (std::size_t i = 0; i < e.size(); ++i) {
    check(e.ids[i] >= 0 && static_cast<std::size_t>(e.ids[i]) < t.vocab_size());
    if (e.sequence[i] < 0) continue;
    const auto s = static_cast<std::size_t>(e.sequence[i]);
    const bertkit::tok::Offsets o = e.offsets[i];
    check(o.begin <= o.end && o.end <= (s == 0 ? a.size() : b.size()));
    if (order == OffsetOrder::AfterPreviousEnd) check(o.begin >= last_end[s] || o.begin == e.offsets[i - 1].begin);
    if (order == OffsetOrder::AfterPreviousBegin) check(o.begin >= last_begin[s]);
    last_begin[s] = o.begin;
    last_end[s] = o.end;
  }
  for (const auto& window : e.overflowing) check_encoding(t, window, a, b, order);
}

// The input's encoding, or nullopt when the tokenizer refuses it.
inline std::optional<bertkit::tok::Encoding> encode_or_refuse(const bertkit::tok::Tokenizer& t, const TokenizerInput& in) {
  try {
    return t.encode(in.a, in.second(), in.options);
  } catch (const bertkit::Error&) {
    return std::nullopt;
  }
}

// `pieces`, a tokenizer that cuts long texts into the smallest pieces it allows, gives the input the
// encoding `whole` is, or refuses it as `whole` (nullopt) says the same tokenizer reading it whole did.
inline void check_pieces_agree(const bertkit::tok::Tokenizer& pieces, const TokenizerInput& in,
                               const std::optional<bertkit::tok::Encoding>& whole) {
  const std::optional<bertkit::tok::Encoding> cut = encode_or_refuse(pieces, in);
  check(cut.has_value() == whole.has_value());
  if (!whole) return;
  check(cut->ids == whole->ids && cut->offsets == whole->offsets && cut->type_ids == whole->type_ids &&
        cut->words == whole->words && cut->overflowing.size() == whole->overflowing.size());
}

// The input's encoding by `whole` (nullopt when refused), checked against `pieces` reading it.
inline std::optional<bertkit::tok::Encoding> encode_checking_pieces(const bertkit::tok::Tokenizer& whole,
                                                                    const bertkit::tok::Tokenizer& pieces,
                                                                    const TokenizerInput& in) {
  std::optional<bertkit::tok::Encoding> e = encode_or_refuse(whole, in);
  check_pieces_agree(pieces, in, e);
  return e;
}

}  // namespace bkfuzz
