// A Precompiled normalizer's charsmap (the bytes tokenizer.json holds in base64): parsed, then run over
// a few texts and over the input itself read as text. Beyond not crashing: what normalises is valid
// UTF-8 and every byte of it is aligned inside the text it came from.
#include "core/error.h"
#include "fuzz_check.h"
#include "tokenizer/precompiled_charsmap.h"
#include "tokenizer/precompiled_normalizer.h"
#include "tokenizer/utf8.h"

#include <memory>
#include <string>
#include <string_view>

using namespace bertkit::tok;
using bkfuzz::check;

namespace {

void check_normalizes(const PrecompiledNormalizer& n, std::string_view text) {
  NormalizedText out;
  n.normalize(text, 7, out);
  check(valid_utf8_prefix(out.text) == out.text.size());
  for (std::size_t i = 0; i < out.text.size(); ++i)
    check(out.begin_of(i) >= 7 && out.begin_of(i) <= out.end_of(i) && out.end_of(i) <= 7 + text.size());
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string_view bytes(reinterpret_cast<const char*>(data), size);
  try {
    auto map = std::make_shared<const PrecompiledCharsmap>(PrecompiledCharsmap::from_bytes(bytes, "fuzz"));
    const PrecompiledNormalizer n(map);
    std::string text;
    repair_utf8(bytes.substr(bytes.size() / 2), text);
    for (std::string_view t : {std::string_view("Hello  w\xC3\xB6rld \xEF\xAC\x81 \xE2\x80\xBC\xEF\xB8\x8F e\xCC\x81"),
                               std::string_view("\x1b[0m\t\xC2\x85"), std::string_view(text)})
      check_normalizes(n, t);
  } catch (const bertkit::Error&) {
  }
  return 0;
}
