#pragma once
// Tokens back to text. A decoder is one of the pipeline's pieces; the WordPiece decoder is the fast
// tokenizer's (per-token "##" joining and clean-up) or the slow tokenizer's convert_tokens_to_string +
// clean_up_tokenization (--compat python).
#include "tokenizer/unicode.h"

#include <string>
#include <vector>

namespace bertkit::tok {

struct DecoderOptions {
  std::string prefix = "##";
  bool cleanup = true;                       // tokenizer.json's WordPiece decoder: clean each token
  bool clean_up_tokenization_spaces = true;  // tokenizer_config.json: transformers cleans the whole text
};

// transformers' clean_up_tokenization, what decode() adds when clean_up_tokenization_spaces is on.
void clean_up_tokenization(std::string& s);

std::string decode_wordpiece(const std::vector<std::string>& tokens, const DecoderOptions& options,
                             UnicodeProfile profile);

class Decoder {
 public:
  virtual ~Decoder() = default;
  virtual std::string decode(const std::vector<std::string>& tokens) const = 0;
  // transformers' convert_tokens_to_string: the tokens joined, without the clean-up of the whole text
  // that decode() may add (clean_up_tokenization_spaces).
  virtual std::string join(const std::vector<std::string>& tokens) const = 0;
};

class WordPieceDecoder : public Decoder {
 public:
  WordPieceDecoder(DecoderOptions options, UnicodeProfile profile)
      : options_(std::move(options)), join_options_(options_), profile_(profile) {
    join_options_.clean_up_tokenization_spaces = false;
  }
  std::string decode(const std::vector<std::string>& tokens) const override {
    return decode_wordpiece(tokens, options_, profile_);
  }
  std::string join(const std::vector<std::string>& tokens) const override {
    return decode_wordpiece(tokens, join_options_, profile_);
  }

 private:
  DecoderOptions options_, join_options_;
  UnicodeProfile profile_;
};

}  // namespace bertkit::tok
