#pragma once
#include <optional>
#include <string_view>

namespace bertkit::tok {

// bert-base-uncased's vocab.txt, linked into the binary (see tokenizer/data/README.md).
std::string_view default_vocab_text();

// WordPiece's tables for that vocabulary (wordpiece_image.h), compiled when bertkit is built; nullopt in
// the program that compiles them, which links this library without them.
std::optional<std::string_view> default_wordpiece_image();

}  // namespace bertkit::tok
