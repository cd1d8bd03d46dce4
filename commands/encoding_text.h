#pragma once
// An encoding's arrays as text, appended straight to an output line: "101 7592 102" or "101,7592,102",
// tokens likewise, offsets as "[0,5],[6,11]". Room is made once per array and the values written
// through a pointer, not appended one by one: `bertkit tokenize` writes every token of its input, and
// a check and a call per value would cost as much as the tokenizing.
#include "commands/token_texts.h"
#include "records/text_buffer.h"
#include "tokenizer/encoding.h"

#include <cstdint>
#include <span>
#include <string>

namespace bertkit::cmd {

// Small values (type ids, attention masks) in decimal with `separator` between them.
void append_joined(records::TextBuffer& out, std::span<const std::int32_t> values, char separator);
void append_joined(records::TextBuffer& out, std::span<const std::uint8_t> values, char separator);
// The texts (or ids) of the tokens `ids`, with the separator `texts` was made with between them.
void append_joined(records::TextBuffer& out, std::span<const std::int32_t> ids, const TokenTexts& texts);
// Each offset as a JSON pair "[begin,end]", with ',' between them.
void append_json_pairs(records::TextBuffer& out, std::span<const tok::Offsets> offsets);

}  // namespace bertkit::cmd
