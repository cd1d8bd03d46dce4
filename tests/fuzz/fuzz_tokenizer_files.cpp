// tokenizer.json + tokenizer_config.json loading (tokenizer/loader.h) on arbitrary bytes: the first
// byte picks which files the input is (bit 0: tokenizer.json, else vocab.txt of the built-in vocabulary;
// bit 1: a tokenizer_config.json follows after the first NUL byte). A spec that loads must build a
// tokenizer that encodes a fixed text with ids inside its vocabulary.
#include "core/error.h"
#include "tokenizer/default_vocab.h"
#include "tokenizer/loader.h"

#include <cstdlib>
#include <string>
#include <string_view>

using namespace bertkit::tok;

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  if (size == 0) return 0;
  const std::uint8_t knobs = data[0];
  std::string_view rest(reinterpret_cast<const char*>(data + 1), size - 1);
  std::string_view main = rest, config;
  if (knobs & 2) {
    auto nul = rest.find('\0');
    main = rest.substr(0, nul);
    config = nul == std::string_view::npos ? std::string_view() : rest.substr(nul + 1);
  }
  TokenizerFiles files;
  files.origin = "fuzz";
  if (knobs & 1) files.tokenizer_json = std::string(main);
  else files.vocab_txt = std::string(default_vocab_text());
  if (knobs & 2) files.tokenizer_config_json = std::string(config);
  try {
    Tokenizer tokenizer(build_tokenizer_spec(files));
    Encoding e = tokenizer.encode("Hello, wörld! [MASK] unaffable", "second text", EncodeOptions{});
    for (auto id : e.ids)
      if (id < 0 || static_cast<std::size_t>(id) >= tokenizer.vocab_size()) std::abort();
  } catch (const bertkit::Error&) {
  }
  return 0;
}
