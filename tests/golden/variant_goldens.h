#pragma once
// The goldens of tokenizer.json variants made by tests/golden/make_*_golden.mjs from npm `tokenizers`
// (the Rust library): a first line {"common": {...}, "variants": {name: {...}}} naming the keys of a
// base tokenizer.json that every variant, then each one, replaces; then one line per text with each
// variant's ids and code point offsets (flattened), encoded without special tokens.
#include <cstddef>
#include <string>

namespace bktest {

// Encodes every text with every variant built over `base_tokenizer_json` and checks ids and offsets
// (reporting the first mismatches); at least `min_records` (text, variant) pairs must be read (a
// kSweepStride-th of them, and of the texts, in sanitizer builds).
void check_variant_goldens(const std::string& goldens, const std::string& base_tokenizer_json, std::size_t min_records);

}  // namespace bktest
