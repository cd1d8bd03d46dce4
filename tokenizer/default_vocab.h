#pragma once
#include <string_view>

namespace bertkit::tok {

// bert-base-uncased's vocab.txt, linked into the binary (see tokenizer/data/README.md).
std::string_view default_vocab_text();

}  // namespace bertkit::tok
