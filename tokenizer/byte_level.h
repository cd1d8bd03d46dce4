#pragma once
// GPT-2's byte level (Hugging Face's ByteLevel pre-tokenizer, post-processor and decoder): every byte
// of the text stands for one printable character of a fixed alphabet ("Ġ" for a space), words are cut
// by GPT-2's pattern, and the model's vocabulary is written in that alphabet. bertkit keeps the text in
// its own bytes: the pre-tokenizer only cuts it (prepending a space when asked), and the BPE model
// (bpe.h) reads its vocabulary through the mapping below, so nothing is rewritten per byte.
#include "tokenizer/decoder.h"
#include "tokenizer/pre_tokenizer.h"

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace bertkit::tok {

struct ByteLevelOptions {
  bool add_prefix_space = true;  // a space before each text that does not start with one
  bool trim_offsets = true;      // read by the post-processor (RobertaProcessing), not here
  bool use_regex = true;         // false: each text is one word
};

// The character byte `b` stands for.
char32_t byte_level_char(std::uint8_t b);
// A token of the byte-level alphabet as the bytes it stands for; nullopt when a character of it is
// outside the alphabet (such a token can never come out of text).
std::optional<std::string> byte_level_bytes(std::string_view token);

// Appends the words of GPT-2's pattern
//   's|'t|'re|'ve|'m|'ll|'d| ?\p{L}+| ?\p{N}+| ?[^\s\p{L}\p{N}]+|\s+(?!\S)|\s+
// over text[from, to) (valid UTF-8), as the Rust library's regex (Oniguruma) matches it.
void split_gpt2(std::string_view text, std::uint32_t from, std::uint32_t to, std::vector<ByteSpan>& words);

class ByteLevelPreTokenizer : public PreTokenizer {
 public:
  explicit ByteLevelPreTokenizer(ByteLevelOptions options) : options_(options) {}
  const NormalizedText& pre_tokenize(const NormalizedText& text, std::uint32_t from, std::uint32_t to,
                                     std::vector<ByteSpan>& words, NormalizedText& rewritten) const override;
  // GPT-2's pattern ends every match before a space that follows a visible character and matches from
  // that space as it would in the whole text; a piece starting with a space gets no prefix space. Without
  // the pattern the whole text is one word.
  bool independent_across_spaces() const override { return options_.use_regex; }

 private:
  ByteLevelOptions options_;
};

struct ByteLevelDecoderOptions {
  bool clean_up_tokenization_spaces = true;  // tokenizer_config.json: transformers cleans the whole text
};

// Tokens' characters back to bytes (a token with a character outside the alphabet stays as it is),
// invalid UTF-8 replaced by U+FFFD.
class ByteLevelDecoder : public Decoder {
 public:
  explicit ByteLevelDecoder(ByteLevelDecoderOptions options) : options_(options) {}
  std::string decode(const std::vector<std::string>& tokens) const override;
  std::string join(const std::vector<std::string>& tokens) const override;

 private:
  ByteLevelDecoderOptions options_;
};

// How many bytes of the text the "Ġ" and white space characters at each end of a token stand for: what
// RobertaProcessing's (and ByteLevel's) trim_offsets moves a token's offsets off. A "Ġ" is one byte (a
// space); white space itself is in an added token's matched text, as many bytes as it takes (U+3000:
// three), as Hugging Face trims "a\u3000[E1]" with lstrip to the token's own four characters.
struct SpaceEnds {
  std::uint32_t leading = 0, trailing = 0;
};
SpaceEnds space_ends(std::string_view token);
// Hugging Face's process_offsets for one token: `first` when it is the first of its sequence or starts
// the text; with add_prefix_space, such a token keeps the one space the pre-tokenizer added.
void trim_offsets(SpaceEnds ends, bool first, bool add_prefix_space, std::uint32_t& begin, std::uint32_t& end);

}  // namespace bertkit::tok
