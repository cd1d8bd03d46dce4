#pragma once
// SentencePiece's own normaliser (normalizer.cc, Normalizer::Normalize), as a model read from its .model
// file runs it: user-defined pieces kept as they are, else the longest rule of the precompiled charsmap
// that the text starts with (not Hugging Face's grapheme-by-grapheme Precompiled), white space at the
// start dropped, runs of it collapsed and the end's dropped (remove_extra_whitespaces), "▁" put before
// non-empty text (add_dummy_prefix) and every space written as "▁" (escape_whitespaces). Each call is
// one SentencePiece encode: every piece of text between added tokens gets its own dummy prefix. Every
// byte is aligned to the original bytes the rule consumed; the dummy prefix to none (an empty span at
// the first character kept).
#include "tokenizer/normalizer.h"
#include "tokenizer/precompiled_charsmap.h"
#include "tokenizer/prefix_trie.h"

#include <memory>

namespace bertkit::tok {

struct SentencePieceRules {
  std::shared_ptr<const PrecompiledCharsmap> charsmap;  // null: no rules (the identity)
  std::shared_ptr<const PrefixTrie> user_defined;       // null: none
  bool add_dummy_prefix = true;
  bool remove_extra_whitespaces = true;
  bool escape_whitespaces = true;
};

class SentencePieceNormalizer : public Normalizer {
 public:
  explicit SentencePieceNormalizer(SentencePieceRules rules) : rules_(std::move(rules)) {}
  void normalize(std::string_view original, std::uint32_t base, NormalizedText& out) const override;

 private:
  // What the text starting at `text` begins with turns into, and how many bytes of it that takes.
  struct Step {
    std::string_view replacement;
    std::size_t consumed;
  };
  Step prefix(std::string_view text) const;

  SentencePieceRules rules_;
};

}  // namespace bertkit::tok
