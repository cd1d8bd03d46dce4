// A real SentencePiece Unigram tokenizer (../shared's sentence-camembert-base tokenizer.json: Precompiled
// charsmap, Replace, Metaspace, Unigram, template) on arbitrary bytes. The first byte picks the options
// (a pair split at the first tab, special tokens, a short truncation with stride), the rest is the text,
// repaired to valid UTF-8 first as every input reader does. Beyond not crashing: ids are inside the
// vocabulary, each sequence's offsets lie inside its text and their starts never go back (also in
// overflowing windows), decoding gives valid UTF-8, and the same tokenizer cutting texts into the
// smallest pieces it allows gives the same encoding (or refuses alike).
#include "core/error.h"
#include "fuzz_check.h"
#include "tokenizer_input.h"
#include "tokenizer/loader.h"
#include "tokenizer/tokenizer.h"
#include "tokenizer/utf8.h"

#include <cstdio>
#include <cstdlib>
#include <optional>
#include <string>
#include <string_view>

using namespace bertkit::tok;
using bkfuzz::check;

namespace {

// `in_pieces`: long texts are cut into the smallest pieces the tokenizer allows.
const Tokenizer& tokenizer(bool in_pieces = false) {
  auto make = [](bool pieces) -> const Tokenizer* {
    try {
      TokenizerSpec spec = build_tokenizer_spec(
          read_tokenizer_files(std::string(BERTKIT_SHARED_DIR) + "/vocab/sentence-camembert-base/tokenizer.json"));
      if (pieces) spec.piece_bytes = 1;
      return new Tokenizer(std::move(spec));
    } catch (const bertkit::Error& e) {
      std::fprintf(stderr, "fuzz_unigram_tokenizer needs ../shared: %s\n", e.what());
      std::exit(1);
    }
  };
  static const Tokenizer* whole = make(false);
  static const Tokenizer* pieces = make(true);
  return in_pieces ? *pieces : *whole;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  bkfuzz::TokenizerInput in;
  if (!bkfuzz::read_tokenizer_input(data, size, in)) return 0;
  const std::string_view a = in.a, b = in.b;
  const auto& t = tokenizer();
  const std::optional<Encoding> whole = bkfuzz::encode_checking_pieces(t, tokenizer(true), in);
  if (!whole) return 0;
  const Encoding& e = *whole;
  try {
    bkfuzz::check_encoding(t, e, a, b, bkfuzz::OffsetOrder::AfterPreviousBegin);
    const std::string decoded = t.decode(e.ids, in.knobs & 16);
    check(valid_utf8_prefix(decoded) == decoded.size());
  } catch (const bertkit::Error&) {
  }
  return 0;
}
