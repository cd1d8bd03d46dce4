// A Unigram model as tokenizer.json holds it: the input is the "model" object ({"type": "Unigram",
// "unk_id": ..., "vocab": [[piece, score], ...], "byte_fallback": ...}), loaded through the whole
// tokenizer.json reader, then a few texts encoded. Beyond not crashing: ids are inside the vocabulary
// and offsets inside the text, their starts never going back.
#include "core/error.h"
#include "fuzz_check.h"
#include "tokenizer/loader.h"
#include "tokenizer/tokenizer.h"

#include <string>
#include <string_view>

using namespace bertkit::tok;
using bkfuzz::check;

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  TokenizerFiles files;
  files.tokenizer_json = "{\"pre_tokenizer\": {\"type\": \"Metaspace\"}, \"model\": " +
                         std::string(reinterpret_cast<const char*>(data), size) + "}";
  files.origin = "fuzz";
  try {
    const Tokenizer t(build_tokenizer_spec(files));
    for (std::string_view text : {std::string_view("Bonjour le monde !"), std::string_view("a\xC3\xA9\xE2\x96\x81  zz\xF0\x9F\x98\x80"),
                                  std::string_view("")}) {
      const Encoding e = t.encode(text, std::nullopt, {});
      std::uint32_t last_begin = 0;
      for (std::size_t i = 0; i < e.size(); ++i) {
        check(e.ids[i] >= 0 && static_cast<std::size_t>(e.ids[i]) < t.vocab_size());
        if (e.sequence[i] < 0) continue;
        check(e.offsets[i].begin <= e.offsets[i].end && e.offsets[i].end <= text.size());
        check(e.offsets[i].begin >= last_begin);
        last_begin = e.offsets[i].begin;
      }
    }
  } catch (const bertkit::Error&) {
  }
  return 0;
}
