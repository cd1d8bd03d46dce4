#pragma once
// Building a TokenizerSpec from a model's tokenizer files, read the way transformers reads them:
// tokenizer.json (its pipeline pieces, tokenizer_json_pieces.h), else vocab.txt (BERT's pipeline);
// tokenizer_config.json (old layout and the newer one with added_tokens_decoder) and
// special_tokens_map.json on top.
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

// --compat python for a folder with tokenizer.json and DeBERTa's spm.model beside it: the folder's files
// with spm.model (and added_tokens.json) in place of tokenizer.json, so that transformers' slow
// DebertaV2Tokenizer is built; the files as they are otherwise.
TokenizerFiles slow_sentencepiece_files(TokenizerFiles files);

// bert-base-uncased's tokenizer from the vocabulary built into the binary.
TokenizerFiles builtin_tokenizer_files();

// A tokenizer.json without model.vocab takes its vocabulary from vocab.txt: converted files store it so.
TokenizerSpec build_tokenizer_spec(const TokenizerFiles& files);

// What `info` says of a tokenizer: its model ("WordPiece", "BPE (byte-level, 50000 merges)") and its
// normalizer's steps ("none" when nothing changes the text).
std::string model_summary(const TokenizerSpec& spec);
std::string normalizer_summary(const TokenizerSpec& spec);

// The same tokenizer in files that load faster, for a converted model: tokenizer.json's vocabulary moved
// into vocab.txt (one token per line, in id order), which loads in a tenth of the time of the JSON
// object; the files as they are when the vocabulary cannot be written as lines (ids with gaps, an empty
// token or one holding a newline) or there is no tokenizer.json.
TokenizerFiles compact_tokenizer_files(const TokenizerFiles& files);

}  // namespace bertkit::tok
