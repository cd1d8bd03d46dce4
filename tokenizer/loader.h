#pragma once
// Building a TokenizerSpec from a model's tokenizer files, read the way transformers reads them:
// tokenizer.json (BERT's WordPiece subset), else vocab.txt; tokenizer_config.json (old layout and the
// newer one with added_tokens_decoder) and special_tokens_map.json on top.
#include "core/checkpoint/tokenizer_files.h"
#include "tokenizer/tokenizer.h"

#include <filesystem>
#include <optional>
#include <string>

namespace bertkit::tok {

using TokenizerFiles = core::TokenizerFiles;

// A folder (also its 0_Transformer/ subfolder, sentence-transformers' old layout), a tokenizer.json or a
// vocab.txt. Throws BadInput naming the path when nothing usable is there.
TokenizerFiles read_tokenizer_files(const std::filesystem::path& path);

// bert-base-uncased's tokenizer from the vocabulary built into the binary.
TokenizerFiles builtin_tokenizer_files();

TokenizerSpec build_tokenizer_spec(const TokenizerFiles& files);

}  // namespace bertkit::tok
