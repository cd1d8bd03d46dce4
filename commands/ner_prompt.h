#pragma once
// `bertkit ner` on a terminal: a prompt with line editing and history (libedit); each sentence typed
// shows its entities (the text with them marked, then one per line), Ctrl-D (or `:q`) leaves.
#include "commands/ner.h"
#include "core/model/batching.h"
#include "records/encode_records.h"

namespace bertkit::cmd {

struct NerPrompt {
  TokenClassifier& classifier;
  const tok::Tokenizer& tokenizer;
  records::TokenizeOptions tokenize;  // truncation to the model's maximum length, windows with --stride
  core::BatchLimits limits;
  NerSettings settings;
};

// Runs until end of input; returns the exit status.
int run_ner_prompt(NerPrompt prompt);

}  // namespace bertkit::cmd
