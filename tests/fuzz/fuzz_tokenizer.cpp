// The built-in bert-base-uncased tokenizer on arbitrary bytes. The first byte picks the options (a pair
// split at the first tab, special tokens, a short truncation with stride), the rest is the text, repaired
// to valid UTF-8 first as every input reader does (Tokenizer::encode requires valid UTF-8). Beyond
// not crashing: ids are inside the vocabulary, each sequence's offsets lie inside its text and never go
// back, and for ASCII input without [UNK] the decoded ids spell the input, lower-cased, with whitespace
// and control characters dropped.
#include "core/error.h"
#include "fuzz_check.h"
#include "tokenizer_input.h"
#include "tokenizer/loader.h"
#include "tokenizer/tokenizer.h"
#include "tokenizer/utf8.h"

#include <cctype>
#include <cstdlib>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

using namespace bertkit::tok;
using bkfuzz::check;

namespace {

const Tokenizer& tokenizer() {
  static const Tokenizer t(build_tokenizer_spec(builtin_tokenizer_files()));
  return t;
}

// Letters and symbols only, lower-cased: what survives normalisation and decoding's spacing rules.
std::string spelling(std::string_view s) {
  std::string out;
  for (unsigned char c : s)
    if (c > 0x20 && c < 0x7f) out.push_back(static_cast<char>(std::tolower(c)));
  return out;
}

bool is_ascii(std::string_view s) {
  for (unsigned char c : s)
    if (c >= 0x80) return false;
  return true;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  bkfuzz::TokenizerInput in;
  if (!bkfuzz::read_tokenizer_input(data, size, in)) return 0;
  const auto& t = tokenizer();
  const std::optional<Encoding> e = bkfuzz::encode_or_refuse(t, in);
  if (!e) return 0;
  try {
    bkfuzz::check_encoding(t, *e, in.a, in.b, bkfuzz::OffsetOrder::AfterPreviousEnd);
    if (!in.pair && !in.options.truncation && is_ascii(in.a)) {
      // The text's own tokens (special tokens typed in the text, such as [MASK], included).
      const auto unk = t.token_id(t.spec().special.unk);
      std::vector<std::int32_t> ids;
      bool has_unk = false;
      for (std::size_t i = 0; i < e->size(); ++i) {
        if (e->sequence[i] < 0) continue;
        ids.push_back(e->ids[i]);
        has_unk |= unk && e->ids[i] == *unk;
      }
      if (!has_unk) check(spelling(t.decode(ids, false)) == spelling(in.a));
    }
  } catch (const bertkit::Error&) {
  }
  return 0;
}
