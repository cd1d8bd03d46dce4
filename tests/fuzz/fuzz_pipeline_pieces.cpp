// tokenizer.json's normalizers and splitting pre-tokenizers in front of ../shared's bert-base-cased
// WordPiece, on arbitrary bytes: the Unicode forms (NFC, NFD, NFKC, NFKD) behind BertPreTokenizer, the
// tutorial layout (NFD, StripAccents, Lowercase; Whitespace), and WhitespaceSplit, Punctuation
// (MergedWithNext) and Digits in a Sequence. The first byte picks the options (a pair split at the
// first tab, special tokens, a short truncation with stride) and, with its high four bits (modulo the
// number of layouts), the layout; the rest is the text, repaired to valid UTF-8 as every input reader
// does. Beyond not crashing: ids are inside the vocabulary, each sequence's offsets lie inside its text
// and their starts never go back, and a tokenizer cutting texts into the smallest pieces it allows
// gives the same encoding (or refuses alike).
#include "core/error.h"
#include "fuzz_check.h"
#include "tokenizer_input.h"
#include "tokenizer/loader.h"
#include "tokenizer/tokenizer.h"

#include <nlohmann/json.hpp>

#include <array>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <memory>
#include <optional>

using namespace bertkit::tok;
using nlohmann::json;

namespace {

// Each layout: the tokenizer.json keys it replaces.
const json kLayouts[] = {
    {{"normalizer", {{"type", "NFC"}}}},
    {{"normalizer", {{"type", "NFD"}}}},
    {{"normalizer", {{"type", "NFKC"}}}},
    {{"normalizer", {{"type", "NFKD"}}}},
    {{"normalizer", {{"type", "Sequence"}, {"normalizers", {{{"type", "NFD"}}, {{"type", "StripAccents"}}, {{"type", "Lowercase"}}}}}},
     {"pre_tokenizer", {{"type", "Whitespace"}}}},
    {{"pre_tokenizer",
      {{"type", "Sequence"},
       {"pretokenizers",
        {{{"type", "WhitespaceSplit"}}, {{"type", "Punctuation"}, {"behavior", "MergedWithNext"}}, {{"type", "Digits"}, {"individual_digits", true}}}}}}},
};
constexpr std::size_t kForms = std::size(kLayouts);

// `in_pieces`: long texts are cut into the smallest pieces the tokenizer allows. Each layout is built
// when first used: the sanitizer build's smoke run lasts seconds, which building all would take.
const Tokenizer& tokenizer(std::size_t form, bool in_pieces) {
  static const json base = [] {
    std::ifstream in(std::string(BERTKIT_SHARED_DIR) + "/vocab/bert-base-cased/tokenizer.json");
    if (!in) {
      std::fprintf(stderr, "fuzz_pipeline_pieces needs ../shared\n");
      std::exit(1);
    }
    return json::parse(in);
  }();
  static std::array<std::unique_ptr<Tokenizer>, 2 * kForms> made;
  auto& t = made[form + (in_pieces ? kForms : 0)];
  if (!t) {
    json j = base;
    for (const auto& [key, value] : kLayouts[form].items()) j[key] = value;
    TokenizerFiles files;
    files.origin = "fuzz";
    files.tokenizer_json = j.dump();
    TokenizerSpec spec = build_tokenizer_spec(files);
    if (in_pieces) spec.piece_bytes = 1;
    t = std::make_unique<Tokenizer>(std::move(spec));
  }
  return *t;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  bkfuzz::TokenizerInput in;
  if (!bkfuzz::read_tokenizer_input(data, size, in)) return 0;
  const std::size_t form = (in.knobs >> 4) % kForms;
  const Tokenizer& t = tokenizer(form, false);
  const std::optional<Encoding> whole = bkfuzz::encode_checking_pieces(t, tokenizer(form, true), in);
  if (!whole) return 0;
  try {
    bkfuzz::check_encoding(t, *whole, in.a, in.b, bkfuzz::OffsetOrder::AfterPreviousBegin);
  } catch (const bertkit::Error&) {
  }
  return 0;
}
