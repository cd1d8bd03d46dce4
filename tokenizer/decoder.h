#pragma once
// Ids back to text: the WordPiece decoder of the fast tokenizer (per-token "##" joining and clean-up) or
// the slow tokenizer's convert_tokens_to_string + clean_up_tokenization (--compat python).
#include "tokenizer/unicode.h"

#include <string>
#include <vector>

namespace bertkit::tok {

struct DecoderOptions {
  std::string prefix = "##";
  bool cleanup = true;                       // tokenizer.json's WordPiece decoder: clean each token
  bool clean_up_tokenization_spaces = true;  // tokenizer_config.json: transformers cleans the whole text
};

std::string decode_wordpiece(const std::vector<std::string>& tokens, const DecoderOptions& options,
                             UnicodeProfile profile);

}  // namespace bertkit::tok
