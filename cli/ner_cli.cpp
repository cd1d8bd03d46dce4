// `bertkit ner` (alias token-classification): the entities of texts, each token's label or words and
// entities grouped as --aggregation says, offsets into the original text; or CoNLL or inline text; or
// an interactive prompt on a terminal.
#include "cli/app.h"
#include "cli/choice_flags.h"
#include "cli/list_flags.h"
#include "cli/empty_values.h"
#include "cli/number_flags.h"
#include "cli/task_flags.h"
#include "cli/task_model.h"
#include "commands/ner.h"
#include "commands/ner_prompt.h"
#include "core/error.h"
#include "records/record_writer.h"

#include <fmt/format.h>
#include <fmt/ranges.h>
#include <unistd.h>

#include <memory>
#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace bertkit::cli {

namespace {

struct NerOptions {
  TaskFlags task;
  std::string aggregation = "none";
  std::vector<std::string> ignore_labels;  // as given: comma-separated lists; none given: O
  CLI::Option* ignore_labels_flag = nullptr;
  std::optional<std::size_t> stride;
  std::string offsets = "chars";
  bool interactive = false;
};

std::vector<std::string> split_labels(const std::vector<std::string>& lists) {
  std::vector<std::string> labels;
  for (const std::string& list : lists)
    for (std::string& label : split_comma_list(list)) labels.push_back(std::move(label));
  return labels;
}

// What --dry-run says of the output.
std::string mode(bool interactive, const std::string& format, const std::string& aggregation) {
  if (interactive) return "interactive prompt";
  if (format == "conll") return "conll (a word and its label per line; none and simple label words as first)";
  if (format == "inline")
    return aggregation == "none" ? "inline (the entities of first marked in the text)" : "inline (entities marked in the text)";
  return "records";
}

int run_ner(const NerOptions& o) {
  result_format(o.task);
  const bool interactive = o.interactive || (o.task.texts.empty() && o.task.inputs.empty() && ::isatty(0) == 1);
  if (o.interactive && (!o.task.texts.empty() || !o.task.inputs.empty()))
    usage_error("--interactive reads sentences from the terminal: give no texts and no -i");
  if (interactive) {
    refuse_record_flags_in_prompt(o.task);
    if (o.offsets != "chars") usage_error("--offsets does not apply to the interactive prompt, which shows entities without offsets");
  }
  cmd::NerSettings settings;
  settings.aggregation = cli::parse_aggregation(o.aggregation);
  if (o.ignore_labels_flag->count() > 0) settings.ignore_labels = split_labels(o.ignore_labels);
  if (o.offsets != "chars" && o.offsets != "bytes") usage_error("--offsets must be chars or bytes, not '{}'", o.offsets);
  // The pipeline refuses a stride without aggregation: the tokens of overlapping windows would repeat.
  if (o.stride && settings.aggregation == cmd::Aggregation::None)
    usage_error("--stride needs an --aggregation other than none (simple, first, average or max)");
  // transformers' slow tokenizer gives no offsets, so its pipeline refuses what needs them.
  settings.slow_tokenizer = o.task.compat == "python";
  if (settings.slow_tokenizer) {
    const std::string format = output_format(o.task);
    if (settings.aggregation != cmd::Aggregation::None && settings.aggregation != cmd::Aggregation::Simple)
      usage_error("--compat python (the pipeline's slow-tokenizer path) has no offsets to find words with: "
                  "--aggregation {} needs the fast tokenizer; use none or simple", o.aggregation);
    if (o.stride) usage_error("--compat python (the pipeline's slow-tokenizer path) cannot read windows: --stride needs the fast tokenizer");
    if (format == "conll" || format == "inline" || interactive)
      usage_error("--compat python (the pipeline's slow-tokenizer path) has no offsets: {} needs the fast tokenizer",
                  interactive ? "the prompt" : "--format " + format);
  }

  TaskModel model = load_task_model(o.task);
  cmd::TokenClassifier classifier(model.loaded.config, model.weights);
  records::PipelineOptions options = pipeline_options(o.task, model);
  if (o.stride) {
    const std::size_t room = model.max_length - model.tokenizer->added_tokens(false);
    if (*o.stride >= room)
      usage_error("--stride {} must be less than the {} text tokens of a window (max length {})", *o.stride, room,
                  model.max_length);
    options.tokenize.encode.truncation->stride = *o.stride;
    options.tokenize.encode.keep_overflow = true;
    options.mark_truncated = false;  // the text past a window is read in the next one
    options.refuse_truncated = false;
  }

  if (o.task.dry_run) {
    Settings s = common_settings(o.task, model);
    if (o.stride)
      s.set("truncation", fmt::format("none (a text longer than max length is read in windows overlapping by {} "
                                      "tokens)", *o.stride));
    s.add("aggregation", o.aggregation);
    s.add("ignored labels", settings.ignore_labels.empty() ? "none" : fmt::format("{}", fmt::join(settings.ignore_labels, ",")));
    s.add("offsets", o.offsets == "chars" ? "chars (code points)" : "bytes (UTF-8)");
    s.add("mode", mode(interactive, output_format(o.task), o.aggregation));
    records::RecordWriter out("-");
    out.write(s.text());
    return 0;
  }

  if (interactive)
    return cmd::run_ner_prompt({classifier, *model.tokenizer, options.tokenize, options.limits, std::move(settings)});

  const cmd::NerOutput output{cmd::parse_ner_layout(output_format(o.task)), o.offsets == "bytes"};
  cmd::NerTask task(classifier, *model.tokenizer, std::move(settings), output, options.limits);
  return run_task(o.task, options, *model.tokenizer, task);
}

}  // namespace

Action add_ner(CLI::App& sub, const GlobalOptions&) {
  auto o = std::make_shared<NerOptions>();
  add_task_flags(sub, o->task, {.texts_help = "Texts to tag (default: one per line from -i files or stdin; an "
                                              "interactive prompt on a terminal)",
                                .pairs = false,
                                .formats = {"jsonl", "tsv", "csv", "conll", "inline"}});
  sub.add_option("--aggregation", o->aggregation,
                 "none (every token and its label), simple (tokens grouped into entities), or first, average or "
                 "max (words labelled by their first token, their tokens' mean scores or best token, then grouped)")
      ->capture_default_str();
  o->ignore_labels_flag = sub.add_option("--ignore-labels", o->ignore_labels,
                                         "Labels left out, comma-separated, repeatable (default: O; '' keeps every "
                                         "label)")
                              // One list per flag: texts after it stay texts.
                              ->allow_extra_args(false)
                              ->check(may_be_empty())
                              ->expected(1)
                              ->multi_option_policy(CLI::MultiOptionPolicy::TakeAll);
  sub.add_option("--stride", o->stride,
                 "Read a long text in windows overlapping by N tokens, and merge their entities (needs "
                 "--aggregation other than none)")
      ->check(whole_number(0, 1 << 20));
  sub.add_option("--offsets", o->offsets, "start and end in chars (code points) or bytes (UTF-8)")->capture_default_str();
  sub.add_flag("--interactive", o->interactive, "Prompt for sentences (the default when stdin is a terminal)");
  return [o] { return run_ner(*o); };
}

}  // namespace bertkit::cli
