#include "tokenizer/default_vocab.h"

extern "C" const char bk_default_vocab_begin[];
extern "C" const char bk_default_vocab_end[];

namespace bertkit::tok {

std::string_view default_vocab_text() {
  return {bk_default_vocab_begin, static_cast<std::size_t>(bk_default_vocab_end - bk_default_vocab_begin)};
}

}  // namespace bertkit::tok
