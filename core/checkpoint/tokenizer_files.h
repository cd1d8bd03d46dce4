#pragma once
// A model's tokenizer files as text, any of them absent: what the tokenizer (tokenizer/) is built from
// and what a converted model file carries. It lives in core so that loading a model fills it without
// knowing the tokenizer, and the tokenizer takes it without knowing models.
#include "core/folder_files.h"

#include <filesystem>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace bertkit::core {

// Bytes used where they lie (a model file's map) instead of copied: the view and what keeps it valid.
struct SharedBytes {
  std::string_view bytes;
  std::shared_ptr<const void> owner;

  static SharedBytes copy_of(std::string bytes) {
    auto owned = std::make_shared<const std::string>(std::move(bytes));
    return {*owned, owned};
  }
};

struct TokenizerFiles {
  std::optional<std::string> vocab_txt;
  std::optional<std::string> tokenizer_json;
  std::optional<std::string> tokenizer_config_json;
  std::optional<std::string> special_tokens_map_json;
  // Byte-level BPE's files without tokenizer.json (what transformers' slow RobertaTokenizer reads).
  std::optional<std::string> vocab_json, merges_txt;
  // DeBERTa-v2/v3's SentencePiece model (bytes) and transformers' legacy added_tokens.json beside it.
  std::optional<std::string> spm_model, added_tokens_json;
  // bertkit's compiled tables (tok::write_wordpiece_image): megabytes, read in place from a model file.
  std::optional<SharedBytes> wordpiece_image;
  std::string origin;  // the folder or file they came from, for messages
  std::vector<std::filesystem::path> paths;  // every file read: what an output may never be
};

// The text member a tokenizer file of the table (core/folder_files.h) fills, by its name; nullptr for a
// file TokenizerFiles does not carry.
template <typename Files>
auto* tokenizer_text(Files& files, std::string_view name) {
  if (name == kVocabTxt) return &files.vocab_txt;
  if (name == kTokenizerJson) return &files.tokenizer_json;
  if (name == kTokenizerConfig) return &files.tokenizer_config_json;
  if (name == kSpecialTokensMap) return &files.special_tokens_map_json;
  if (name == kVocabJson) return &files.vocab_json;
  if (name == kMergesTxt) return &files.merges_txt;
  if (name == kSpmModel) return &files.spm_model;
  if (name == kAddedTokens) return &files.added_tokens_json;
  return static_cast<decltype(&files.vocab_txt)>(nullptr);
}

// The tokenizer files of one folder that the table chooses (choose_tokenizer_files), read; each file
// read is in `paths`, `origin` is the folder. `source` says which kind they are (None: no tokenizer).
struct FolderTokenizer {
  TokenizerFiles files;
  TokenizerChoice choice;
};
FolderTokenizer read_folder_tokenizer(const std::filesystem::path& folder);

}  // namespace bertkit::core
