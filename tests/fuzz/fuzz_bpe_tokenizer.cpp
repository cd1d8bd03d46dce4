// A byte-level BPE tokenizer (bpe_test_tokenizer.h) on arbitrary bytes. The first byte picks the
// options (a pair split at the first tab, special tokens, a short truncation with stride, the
// pre-tokenizer's add_prefix_space), the rest is the text, repaired to valid UTF-8 as every input reader
// does. Beyond not crashing: ids are inside the vocabulary, each sequence's offsets lie inside its text
// and (without add_prefix_space) never go back, and, byte-level BPE losing nothing, a text without '<' (no added token) is given
// back byte for byte by the decoder; and a tokenizer that cuts the text into the smallest pieces it
// allows gives the same encoding.
#include "bpe_test_tokenizer.h"
#include "core/error.h"
#include "fuzz_check.h"
#include "tokenizer_input.h"
#include "tokenizer/loader.h"
#include "tokenizer/tokenizer.h"
#include "tokenizer/utf8.h"

#include <optional>
#include <string>
#include <string_view>
#include <vector>

using namespace bertkit::tok;
using bkfuzz::check;

namespace {

// `in_pieces`: long texts are cut into the smallest pieces the tokenizer allows (one byte, then the
// next space after a visible ASCII character), which must change nothing.
const Tokenizer& tokenizer(bool add_prefix_space, bool in_pieces = false) {
  auto make = [](bool prefix, bool pieces) {
    nlohmann::json j = bkfuzz::bpe_tokenizer_json();
    j["pre_tokenizer"]["add_prefix_space"] = prefix;
    j["post_processor"]["add_prefix_space"] = prefix;
    TokenizerFiles files;
    files.origin = "fuzz";
    files.tokenizer_json = j.dump();
    TokenizerSpec spec = build_tokenizer_spec(files);
    if (pieces) spec.piece_bytes = 1;
    return std::make_unique<Tokenizer>(std::move(spec));
  };
  static const auto plain = make(false, false), prefixed = make(true, false);
  static const auto plain_pieces = make(false, true), prefixed_pieces = make(true, true);
  if (in_pieces) return add_prefix_space ? *prefixed_pieces : *plain_pieces;
  return add_prefix_space ? *prefixed : *plain;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  bkfuzz::TokenizerInput in;
  if (!bkfuzz::read_tokenizer_input(data, size, in)) return 0;
  const std::string_view a = in.a, b = in.b;
  const bool add_prefix_space = in.knobs & 16;
  const Tokenizer& t = tokenizer(add_prefix_space);
  const std::optional<Encoding> whole = bkfuzz::encode_checking_pieces(t, tokenizer(add_prefix_space, true), in);
  if (!whole) return 0;
  const Encoding& e = *whole;
  try {
    // With add_prefix_space offsets may go back, as the reference's do: the space added after an added
    // token stands for the next character, and trimming moves its token past that character's start
    // ("a<mask>\u3000": "Ġ" [8, 8], then the pieces of U+3000 [7, 8]).
    bkfuzz::check_encoding(t, e, a, b, add_prefix_space ? bkfuzz::OffsetOrder::Any : bkfuzz::OffsetOrder::AfterPreviousEnd);
    if (!in.pair && !in.options.truncation && a.find('<') == std::string_view::npos) {
      std::vector<std::string> tokens;
      for (std::size_t i = 0; i < e.size(); ++i)
        if (e.sequence[i] >= 0) tokens.emplace_back(t.token(e.ids[i]));
      const std::string decoded = t.tokens_to_string(tokens);
      // The space add_prefix_space puts before a text that does not start with one comes back.
      const bool prefixed = add_prefix_space && !a.empty() && a.front() != ' ';
      check(decoded == (prefixed ? " " + std::string(a) : std::string(a)));
    }
  } catch (const bertkit::Error&) {
  }
  return 0;
}
