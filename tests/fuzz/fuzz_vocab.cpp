// vocab.txt parsing on arbitrary bytes. Beyond not crashing: every non-empty token (line) finds its own
// id (duplicates are refused, empty lines are ids no text maps to).
#include "core/error.h"
#include "tokenizer/vocab.h"

#include <cstdlib>
#include <string_view>

using namespace bertkit::tok;

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  std::string_view text(reinterpret_cast<const char*>(data), size);
  try {
    Vocab vocab = Vocab::from_text(text, "fuzz/vocab.txt");
    for (std::size_t i = 0; i < vocab.size(); ++i) {
      const std::string_view token = vocab.token(static_cast<std::int32_t>(i));
      auto id = vocab.find(token);
      if (token.empty() ? id.has_value() : id != static_cast<std::int32_t>(i)) std::abort();
    }
  } catch (const bertkit::Error&) {
  }
  return 0;
}
