#pragma once
// `bertkit fill-mask` on a terminal: a prompt with line editing and history (libedit); each sentence
// typed gets a table of predictions, `:k N` changes how many, Ctrl-D (or `:q`) leaves.
#include "commands/fill_mask.h"
#include "records/encode_records.h"
#include "core/model/batching.h"

namespace bertkit::cmd {

struct FillMaskPrompt {
  FillMasker& masker;
  const tok::Tokenizer& tokenizer;
  records::TokenizeOptions tokenize;  // truncation to the model's maximum length
  core::BatchLimits limits;
  FillMaskOptions options;
};

// Runs until end of input; returns the exit status.
int run_fill_mask_prompt(FillMaskPrompt prompt);

}  // namespace bertkit::cmd
