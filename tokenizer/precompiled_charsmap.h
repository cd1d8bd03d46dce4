#pragma once
// SentencePiece's normalisation rules as tokenizer.json's Precompiled normalizer stores them
// ("precompiled_charsmap", base64): a little-endian u32 giving the size in bytes of a darts-clone
// double-array trie, the trie's u32 units, then the replacement strings, each ended by a NUL. A key
// (UTF-8 bytes of a character or grapheme) leads through the trie to the offset of its replacement.
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace bertkit::tok {

class PrecompiledCharsmap {
 public:
  // `base64` as tokenizer.json holds it; BadInput naming `where` when it is not base64 or not a charsmap.
  static PrecompiledCharsmap from_base64(std::string_view base64, const std::string& where);
  // The decoded bytes.
  static PrecompiledCharsmap from_bytes(std::string_view bytes, const std::string& where);

  // The replacement of `chunk` (a character or a grapheme), or nullopt when the rules leave it alone.
  // As Hugging Face's port (spm_precompiled) does, the first match of the trie's common-prefix search
  // decides: the shortest prefix of `chunk` that is a key, whose replacement then stands for all of it.
  // Every step is bounds-checked: a damaged trie can only fail to match.
  std::optional<std::string_view> transform(std::string_view chunk) const;

  // sentencepiece's own lookup (normalizer.cc, NormalizePrefix): the longest key `text` starts with, its
  // replacement and length in bytes.
  struct Match {
    std::string_view replacement;
    std::size_t length;
  };
  std::optional<Match> longest_prefix(std::string_view text) const;

 private:
  // Calls on_match(length, replacement) for each key that text[0, length) is, shortest first, while it
  // returns true; the replacement is empty when the trie points outside its strings.
  template <typename OnMatch>
  void for_each_match(std::string_view text, OnMatch&& on_match) const;
  std::optional<std::string_view> replacement_at(std::size_t node) const;

  std::vector<std::uint32_t> units_;
  std::string normalized_;  // the replacement strings, NUL after each
};

}  // namespace bertkit::tok
