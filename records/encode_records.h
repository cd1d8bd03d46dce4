#pragma once
// Tokenizing records, a batch at a time: every input encoded (in parallel), the batch padded. For
// the record pipeline a bad input fails alone (its error is kept, the others are encoded) and each
// encoding says whether truncation cut it, so a command can mark or refuse truncated records.
#include "core/error.h"
#include "tokenizer/padding.h"
#include "tokenizer/tokenizer.h"

#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

namespace bertkit::records {

struct TextInput {
  std::string_view text;
  std::optional<std::string_view> pair;
};

struct TokenizeOptions {
  tok::EncodeOptions encode;
  tok::PaddingParams padding;
};

// Encodes every input (in parallel over OpenMP threads) and pads the batch; results in input order.
// `reuse`: the encodings of an earlier batch, whose memory is filled again (no allocation per record).
std::vector<tok::Encoding> tokenize_batch(const tok::Tokenizer& tokenizer, const TokenizeOptions& options,
                                          std::span<const TextInput> inputs, std::vector<tok::Encoding> reuse = {});

// The encodings of a batch of inputs, in input order.
struct EncodedRecords {
  std::vector<tok::Encoding> encodings;      // an input that could not be encoded has an empty one
  std::vector<std::uint8_t> truncated;       // 1 where truncation removed tokens (when asked to check)
  // Why an input could not be encoded; a usage error (no room for the special tokens) stays one.
  std::vector<std::optional<Error>> errors;
};

// Encodes every input (in parallel); a bad input fails alone. `check_truncation`: fill `truncated`.
EncodedRecords encode_records(const tok::Tokenizer& tokenizer, const TokenizeOptions& options,
                              std::span<const TextInput> inputs, bool check_truncation = true,
                              std::vector<tok::Encoding> reuse = {});

}  // namespace bertkit::records
