// tokenizer.json's NFC, NFD, NFKC, NFKD and StripAccents normalizers, alone and in sequences, against
// the Rust library's ids and offsets recorded by tests/golden/make_unicode_forms_golden.mjs
// (tests/golden/data/unicode_forms.jsonl.gz). Its WordPiece vocabulary is every single character, so
// the offsets show each normalised character's alignment. Texts: the Unicode normalization test's
// columns, a sweep of every assigned code point, messy corpus lines and random runs of marks.
#include "support.h"
#include "variant_goldens.h"

#include <doctest/doctest.h>

TEST_CASE("golden: NFC, NFD, NFKC, NFKD and StripAccents normalizers, offsets included") {
  bktest::check_variant_goldens(std::string(BERTKIT_SOURCE_DIR) + "/tests/golden/data/unicode_forms.jsonl.gz",
                                bktest::shared("vocab/bert-base-multilingual-cased/tokenizer.json"), 40000);
}
