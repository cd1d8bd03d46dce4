// `bertkit fill-mask`: the likeliest tokens for the mask token(s) of every text, or an interactive
// prompt on a terminal.
#include "cli/app.h"
#include "cli/list_flags.h"
#include "commands/fill_mask_prompt.h"
#include "records/log.h"
#include "records/record_writer.h"
#include "cli/number_flags.h"
#include "cli/task_flags.h"
#include "cli/task_model.h"
#include "commands/fill_mask.h"
#include "core/error.h"

#include <fmt/format.h>
#include <unistd.h>

#include <memory>
#include <optional>

namespace bertkit::cli {

namespace {

struct FillMaskOptions {
  TaskFlags task;
  std::size_t top_k = 5;
  std::optional<std::string> targets;  // comma-separated
  bool interactive = false;
};

// The words as written, spaces included: transformers looks each target up as it is given, and in a
// byte-level BPE or SentencePiece vocabulary " Paris" (a word after a space) is another token than "Paris".
std::vector<std::string> split_targets(const std::string& list) {
  std::vector<std::string> out = split_comma_list(list, ItemSpaces::Keep);
  if (out.empty()) usage_error("--targets needs at least one word");
  return out;
}

int run_fill_mask(const FillMaskOptions& o) {
  result_format(o.task);
  const bool interactive = o.interactive || (o.task.texts.empty() && o.task.inputs.empty() && ::isatty(0) == 1);
  if (o.interactive && (!o.task.texts.empty() || !o.task.inputs.empty()))
    usage_error("--interactive reads sentences from the terminal: give no texts and no -i");
  if (interactive) refuse_record_flags_in_prompt(o.task);

  // Before the model loads: an empty list is a usage error.
  const std::vector<std::string> target_words = o.targets ? split_targets(*o.targets) : std::vector<std::string>{};
  TaskModel model = load_task_model(o.task);
  cmd::FillMasker masker(model.loaded.config, model.weights, *model.tokenizer);
  cmd::FillMaskOptions fo;
  fo.top_k = o.top_k;
  cmd::ResolvedTargets targets;
  if (o.targets) {
    targets = cmd::resolve_targets(*model.tokenizer, target_words);
    fo.targets = targets.ids;
  }
  records::PipelineOptions options = pipeline_options(o.task, model);
  // A mask the limit cut off is reported with where it is (token, byte), which the windows tell: so
  // fill-mask tokenizes the whole text, unlike the other model commands.
  options.tokenize.encode.keep_overflow = true;

  if (o.task.dry_run) {
    Settings s = common_settings(o.task, model);
    s.add("mask token", fmt::format("{} (id {})", model.tokenizer->spec().special.mask, model.tokenizer->mask_id()));
    s.add("top-k", fmt::format("{}", fo.top_k));
    std::string target_text = "the whole vocabulary";
    if (!fo.targets.empty()) {
      target_text.clear();
      for (std::int32_t id : fo.targets) target_text += (target_text.empty() ? "" : ", ") + std::string(model.tokenizer->token(id));
    }
    s.add("candidates", target_text);
    s.add("mode", interactive ? "interactive prompt" : "records");
    records::RecordWriter out("-");
    out.write(s.text());
    return 0;
  }
  for (const std::string& note : targets.notes) records::warn("{}", note);

  if (interactive)
    return cmd::run_fill_mask_prompt({masker, *model.tokenizer, options.tokenize, options.limits, fo});

  options.output.pairs = false;
  cmd::FillMaskTask task(masker, fo, options.limits);
  return run_task(o.task, options, *model.tokenizer, task);
}

}  // namespace

Action add_fill_mask(CLI::App& sub, const GlobalOptions&) {
  auto o = std::make_shared<FillMaskOptions>();
  add_task_flags(sub, o->task,
                 {.texts_help = "Texts with the model's mask token, e.g. [MASK] (default: one per line from -i files "
                                "or stdin; an interactive prompt on a terminal)",
                  .pairs = false,
                  .formats = {"jsonl", "tsv", "csv"}});
  sub.add_option("--top-k", o->top_k, "Predictions per mask")->check(whole_number(1, 1 << 20))->capture_default_str();
  sub.add_option_function<std::string>("--targets", [o](const std::string& t) { o->targets = t; },
                 "Comma-separated candidate words: only these are scored (a word that is not a vocabulary token "
                 "counts as its first token)");
  sub.add_flag("--interactive", o->interactive, "Prompt for sentences (the default when stdin is a terminal)");
  return [o] { return run_fill_mask(*o); };
}

}  // namespace bertkit::cli
