// tokenizer.json's pre-tokenizers that only split (Whitespace, WhitespaceSplit, Punctuation with every
// behavior, Digits, BertPreTokenizer, alone and in Sequences) and Hugging Face's tutorial layout (NFD,
// Lowercase, StripAccents; Whitespace), behind multilingual BERT's WordPiece, against the Rust
// library's ids and offsets recorded by tests/golden/make_split_pre_tokenizers_golden.mjs
// (tests/golden/data/split_pre_tokenizers.jsonl.gz).
#include "support.h"
#include "variant_goldens.h"

#include <doctest/doctest.h>

TEST_CASE("golden: Whitespace, WhitespaceSplit, Punctuation and Digits pre-tokenizers and their Sequences") {
  bktest::check_variant_goldens(std::string(BERTKIT_SOURCE_DIR) + "/tests/golden/data/split_pre_tokenizers.jsonl.gz",
                                bktest::shared("vocab/bert-base-multilingual-cased/tokenizer.json"), 20000);
}
