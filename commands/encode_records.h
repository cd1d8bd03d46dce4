#pragma once
// Tokenizing the records of a model command: like tokenize_batch, but a bad input fails alone (its
// error is kept, the others are encoded) and each encoding says whether truncation cut it, so a
// command can mark or refuse truncated records.
#include "commands/tokenize.h"

#include <span>
#include <string>
#include <vector>

namespace bertkit::cmd {

struct EncodedRecord {
  tok::Encoding encoding;
  bool truncated = false;  // truncation removed tokens
  std::string error;       // why the input could not be encoded; empty when it was
};

// Encodes every input (in parallel); results in input order.
std::vector<EncodedRecord> encode_records(const tok::Tokenizer& tokenizer, const TokenizeOptions& options,
                                          std::span<const TextInput> inputs);

// Whether `encoding` (made from `input` with `options`) lost tokens to truncation.
bool was_truncated(const tok::Tokenizer& tokenizer, const TokenizeOptions& options, const TextInput& input,
                   const tok::Encoding& encoding);

}  // namespace bertkit::cmd
