#pragma once
// The Metaspace pre-tokenizer and decoder (SentencePiece models): spaces become the replacement
// character ("▁"), one is put before the text as prepend_scheme says (the older add_prefix_space: true is
// "always"), and with `split` each word starts at a replacement character. The decoder turns them back
// into spaces, dropping the one that starts the first token.
#include "tokenizer/decoder.h"
#include "tokenizer/pre_tokenizer.h"

#include <string>

namespace bertkit::tok {

enum class PrependScheme { Always, First, Never };

struct MetaspaceSpec {
  char32_t replacement = U'\u2581';
  PrependScheme prepend_scheme = PrependScheme::Always;
  bool split = true;
  // Behind a WhitespaceSplit (tokenizer.json's Sequence [WhitespaceSplit, Metaspace], as T5's and some
  // SentencePiece conversions have it): white space cuts the text first and is dropped, and each piece
  // gets its own replacement character.
  bool whitespace_split = false;
};

class MetaspacePreTokenizer : public PreTokenizer {
 public:
  explicit MetaspacePreTokenizer(MetaspaceSpec spec);
  const NormalizedText& pre_tokenize(const NormalizedText& text, std::uint32_t from, std::uint32_t to,
                                     std::vector<ByteSpan>& words, NormalizedText& rewritten) const override;
  // A piece cut before a space starts with a replacement character, so nothing is prepended to it.
  bool independent_across_spaces() const override { return true; }

 private:
  // Metaspace on text[from, to): appended to `rewritten`, its words to `words`.
  void rewrite(const NormalizedText& text, std::uint32_t from, std::uint32_t to, std::vector<ByteSpan>& words,
               NormalizedText& rewritten) const;

  MetaspaceSpec spec_;
  std::string replacement_;  // UTF-8
};

struct MetaspaceDecoderSpec {
  MetaspaceSpec metaspace;
  bool clean_up_tokenization_spaces = true;  // tokenizer_config.json: transformers cleans the whole text
};

class MetaspaceDecoder : public Decoder {
 public:
  explicit MetaspaceDecoder(MetaspaceDecoderSpec spec);
  std::string decode(const std::vector<std::string>& tokens) const override;
  std::string join(const std::vector<std::string>& tokens) const override;

 private:
  MetaspaceDecoderSpec spec_;
  std::string replacement_;
};

}  // namespace bertkit::tok
