#pragma once
// The tokenizer of a folder with DeBERTa-v2/v3's spm.model and no tokenizer.json, built as
// transformers' slow DebertaV2Tokenizer runs it over the sentencepiece library: SentencePiece's own
// normaliser and Unigram model (byte fallback included), the added tokens split out of the raw text
// first (each piece between them encoded with its own dummy prefix), [CLS] A [SEP] B [SEP], the slow
// longest_first truncation (the Python profile), and SPMTokenizer's decode.
#include "core/checkpoint/tokenizer_files.h"
#include "tokenizer/tokenizer.h"

#include <string>
#include <string_view>

namespace bertkit::tok {

// The model, normaliser, pre-tokenizer and decoder from the model file's bytes; BadInput naming `where`
// for a file that is not a SentencePiece model, or one bertkit does not run (a BPE, WORD or CHAR model,
// whitespace as a suffix, spaces not escaped), naming what.
void read_sentencepiece_tokenizer(std::string_view bytes, const std::string& where, TokenizerSpec& spec);

// After tokenizer_config.json and special_tokens_map.json are read: added_tokens.json's tokens, then the
// special tokens the vocabulary lacks ([MASK]), numbered after the vocabulary as transformers adds them;
// every added token matched in the raw text, as a slow tokenizer does; the decoder's lists. BadInput for
// added_tokens.json ids that do not follow on, or options DebertaV2Tokenizer has that bertkit does not
// run (do_lower_case, split_by_punct), naming the file.
void finish_sentencepiece_tokenizer(const core::TokenizerFiles& files, TokenizerSpec& spec);

}  // namespace bertkit::tok
