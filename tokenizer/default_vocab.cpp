#include "tokenizer/default_vocab.h"

extern "C" const char bk_default_vocab_begin[];
extern "C" const char bk_default_vocab_end[];
// Weak: absent (null) in bertkit_compile_vocab, the program that makes them (see CMakeLists.txt).
extern "C" const char bk_default_wordpiece_begin[] __attribute__((weak));
extern "C" const char bk_default_wordpiece_end[] __attribute__((weak));

namespace bertkit::tok {

std::string_view default_vocab_text() {
  return {bk_default_vocab_begin, static_cast<std::size_t>(bk_default_vocab_end - bk_default_vocab_begin)};
}

std::optional<std::string_view> default_wordpiece_image() {
  if (bk_default_wordpiece_begin == nullptr || bk_default_wordpiece_end == nullptr) return std::nullopt;
  return std::string_view{bk_default_wordpiece_begin,
                          static_cast<std::size_t>(bk_default_wordpiece_end - bk_default_wordpiece_begin)};
}

}  // namespace bertkit::tok
