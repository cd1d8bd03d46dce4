// Byte-level BPE loading (tokenizer/loader.h) on arbitrary bytes: the first byte picks what the input
// is (bit 0: a tokenizer.json; else vocab.json, then merges.txt after the first NUL byte; bit 1: a
// tokenizer_config.json follows after the next NUL byte). A spec that loads must build a tokenizer that
// encodes a fixed text with ids inside its vocabulary and decodes them.
#include "core/error.h"
#include "tokenizer/loader.h"

#include <cstdlib>
#include <string>
#include <string_view>

using namespace bertkit::tok;

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  if (size == 0) return 0;
  const std::uint8_t knobs = data[0];
  std::string_view rest(reinterpret_cast<const char*>(data + 1), size - 1);
  auto next_part = [&rest] {
    const auto nul = rest.find('\0');
    std::string_view part = rest.substr(0, nul);
    rest = nul == std::string_view::npos ? std::string_view() : rest.substr(nul + 1);
    return std::string(part);
  };
  TokenizerFiles files;
  files.origin = "fuzz";
  if (knobs & 1) {
    files.tokenizer_json = next_part();
  } else {
    files.vocab_json = next_part();
    files.merges_txt = next_part();
  }
  if (knobs & 2) files.tokenizer_config_json = next_part();
  try {
    Tokenizer tokenizer(build_tokenizer_spec(files));
    Encoding e = tokenizer.encode("Hello, w\xC3\xB6rld! <mask> unaffable \xF0\x9F\x98\x80", "second  text", EncodeOptions{});
    for (auto id : e.ids)
      if (id < 0 || static_cast<std::size_t>(id) >= tokenizer.vocab_size()) std::abort();
    tokenizer.decode(e.ids, true);
  } catch (const bertkit::Error&) {
  }
  return 0;
}
