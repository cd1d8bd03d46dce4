#pragma once
// The tokenizer flags every text command shares (-m, case and accent overrides, truncation, padding,
// --compat), and the tokenizer they select.
#include "records/encode_records.h"
#include "core/loading/model_source.h"
#include "tokenizer/tokenizer.h"

#include <CLI/CLI.hpp>

#include <filesystem>
#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace bertkit::cli {

struct TokenizerFlags {
  std::string model;  // empty: the built-in bert-base-uncased vocabulary
  std::optional<bool> lowercase;
  std::optional<bool> strip_accents;
  bool no_chinese_split = false;
  std::optional<std::size_t> max_length;
  std::string truncation;  // empty: longest_first when --max-length is given, else none
  std::string truncation_side = "right";
  std::size_t stride = 0;
  std::string padding = "none";
  std::string padding_side = "right";
  bool no_special_tokens = false;
  std::string compat = "fast";
};

void add_tokenizer_flags(CLI::App& sub, TokenizerFlags& flags);

// The tokenizer of an already loaded model, or (model == nullptr) of what the flags name (a model
// folder, tokenizer.json, vocab.txt, converted file or cached model id), with the overrides applied.
// `files_read`: set to the files it was read from.
std::unique_ptr<tok::Tokenizer> build_tokenizer(const TokenizerFlags& flags, const core::LoadedModel* model = nullptr,
                                                std::vector<std::filesystem::path>* files_read = nullptr);

records::TokenizeOptions tokenize_options(const TokenizerFlags& flags, const tok::Tokenizer& tokenizer);

}  // namespace bertkit::cli
