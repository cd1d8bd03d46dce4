// `bertkit qa`: extractive question answering over a context given on the command line, in a file, or
// with every record (JSONL fields, CSV/TSV columns, question<TAB>context lines).
#include "cli/app.h"
#include "records/log.h"
#include "records/record_writer.h"
#include "cli/number_flags.h"
#include "cli/task_flags.h"
#include "cli/task_model.h"
#include "commands/qa.h"
#include "core/error.h"
#include "core/files.h"
#include "tokenizer/utf8.h"

#include <fmt/format.h>

#include <algorithm>
#include <iostream>
#include <memory>
#include <optional>
#include <sstream>

namespace bertkit::cli {

namespace {

constexpr std::int64_t kQaBatchTokens = 4096;  // qa's default --max-batch-tokens

struct QaOptions {
  TaskFlags task;
  std::string question;
  std::optional<std::string> context;
  std::string context_file;
  cmd::QaSettings qa;
  bool no_align = false;
  CLI::Option* max_seq_len_flag = nullptr;
  CLI::Option* doc_stride_flag = nullptr;
};

// The context of every question: --context, or the text of --context-file (valid UTF-8).
std::optional<std::string> shared_context(const QaOptions& o) {
  if (o.context && !o.context_file.empty()) usage_error("give --context or --context-file, not both");
  std::string raw;
  if (o.context) {
    raw = *o.context;
  } else if (o.context_file == "-") {
    // Standard input holds the document: the questions must come from elsewhere.
    if (o.task.texts.empty() && (o.task.inputs.empty() || std::ranges::count(o.task.inputs, "-") > 0))
      usage_error("--context-file - reads the context from standard input: give the questions as arguments, "
                  "--question or -i FILE");
    std::ostringstream in;
    in << std::cin.rdbuf();
    raw = std::move(in).str();
  } else if (!o.context_file.empty()) {
    raw = core::read_text_file(o.context_file);
  } else {
    return std::nullopt;
  }
  const std::string name = o.context ? std::string("--context") : o.context_file == "-" ? "<stdin>" : o.context_file;
  if (raw.empty()) bad_input("{}: the context is empty", name);
  if (tok::valid_utf8_prefix(raw) == raw.size()) return raw;
  if (o.task.strict_utf8) bad_input("{}: invalid UTF-8", name);
  records::warn("{}: invalid UTF-8 replaced by U+FFFD (--strict refuses it)", name);
  std::string valid;
  tok::repair_utf8(raw, valid);
  return valid;
}

int run_qa(QaOptions o) {
  result_format(o.task);
  if (!o.question.empty()) {
    if (!o.task.texts.empty() || !o.task.inputs.empty()) usage_error("give --question, or questions as texts or -i files, not both");
    o.task.texts.push_back(o.question);
  }
  std::optional<std::string> context = shared_context(o);
  if (!o.task.texts.empty() && !context && !o.task.pairs)
    usage_error("questions given as arguments need --context or --context-file (or --pairs: question<TAB>context)");
  if (context) {
    // The records are questions only: a context of their own would be answered from one and echo the other.
    const auto given = [](const CLI::Option* flag) { return flag->count() > 0; };
    if (given(o.task.pairs_flag) || given(o.task.pair_column_flag) || given(o.task.pair_field_flag))
      usage_error("--context and --context-file give every question the same context, --pairs, --pair-column and "
                  "--pair-field each its own: give one or the other");
    o.task.pair_field.clear();
    o.task.pair_column.clear();
  } else {
    o.task.pairs = true;  // lines are question<TAB>context
  }
  const records::InputFormat format = records::resolve_format(o.task.inputs, input_spec(o.task).format);
  if (o.task.texts.empty() && (format == records::InputFormat::Csv || format == records::InputFormat::Tsv)) {
    if (o.task.column.empty()) o.task.column = "question";
    if (o.task.pair_column.empty() && !context) o.task.pair_column = cmd::kContextField;
  }

  TaskModel model = load_task_model(o.task);
  cmd::QuestionAnswerer qa(model.loaded.config, model.weights);
  o.qa.align_to_words = !o.no_align;
  o.qa.python = o.task.compat == "python";
  const cmd::QaSettings settings =
      cmd::resolve_qa_settings(o.qa, o.max_seq_len_flag->count() > 0, o.doc_stride_flag->count() > 0, model.max_length);
  records::PipelineOptions options = pipeline_options(o.task, model);
  if (!o.context_file.empty()) options.read_files.push_back({o.context_file, "the --context-file"});
  options.mark_truncated = false;  // long contexts are cut into windows, nothing is lost
  options.refuse_truncated = false;

  if (o.task.dry_run) {
    Settings s = common_settings(o.task, model);
    s.set("truncation", "none (a context longer than max seq length is read in windows overlapping by doc stride)");
    s.add("path", settings.python ? "slow tokenizer (--compat python): windows doc_stride apart, whole words"
                                  : "fast tokenizer: windows overlapping by doc_stride, answers aligned to words");
    s.add("max seq length", fmt::format("{}", settings.max_seq_len));
    s.add("doc stride", fmt::format("{}", settings.doc_stride));
    if (settings.python) s.add("max question length", fmt::format("{}", settings.max_question_len));
    s.add("max answer length", fmt::format("{}", settings.max_answer_len));
    s.add("top-k", fmt::format("{}", settings.top_k));
    s.add("impossible answers", settings.handle_impossible ? "allowed (empty answer)" : "no");
    s.add("context", o.context ? "--context" : !o.context_file.empty() ? o.context_file : "from each record");
    records::RecordWriter out("-");
    out.write(s.text());
    return 0;
  }

  // Line and argument records are named as JSONL and CSV inputs name them.
  options.output.names = {"question", std::string(cmd::kContextField), o.context ? context : std::nullopt,
                          context ? (o.context ? "--context" : "--context-file") : ""};
  options.output.pairs = o.task.pairs;
  cmd::QaTask task(qa, *model.tokenizer, settings, std::move(context), options.limits);
  return run_task(o.task, options, *model.tokenizer, task);
}

}  // namespace

Action add_qa(CLI::App& sub, const GlobalOptions&) {
  auto o = std::make_shared<QaOptions>();
  o->task.field = "question";
  o->task.pair_field = cmd::kContextField;
  // One question over a long document is tens of windows: a smaller budget per model call keeps its
  // peak memory down at little cost in speed (the windows are all of one length).
  o->task.max_batch_tokens = kQaBatchTokens;
  add_task_flags(sub, o->task,
                 {.texts_help = "Questions about --context or --context-file (default: records from -i files or "
                                "stdin: question<TAB>context lines, or JSONL/CSV/TSV with question and context)",
                  .pairs = true,
                  .formats = {"jsonl", "tsv", "csv"}});
  sub.add_option("--question", o->question, "The question");
  sub.add_option_function<std::string>("--context", [o](const std::string& c) { o->context = c; },
                                       "The text to find the answer in, for every question");
  sub.add_option("--context-file", o->context_file, "A file whose whole text is the context of every question");
  sub.add_option("--top-k", o->qa.top_k, "Answers per question (more than 1 adds an `answers` list)")
      ->check(whole_number(1, 1000))
      ->capture_default_str();
  o->doc_stride_flag = sub.add_option("--doc-stride", o->qa.doc_stride,
                                      "Tokens shared by consecutive windows of a long context (default: 128, at most "
                                      "half of --max-seq-length)")
                            ->check(whole_number(0, 1 << 20));
  o->max_seq_len_flag = sub.add_option("--max-seq-length", o->qa.max_seq_len,
                                       "Tokens per window, question and special tokens included (default: 384, at most "
                                       "the model's maximum)")
                             ->check(whole_number(1, 1 << 20));
  sub.add_option("--max-question-length", o->qa.max_question_len,
                 "With --compat python: question tokens kept (the default path keeps the whole question)")
      ->check(whole_number(1, 1 << 20))
      ->capture_default_str();
  sub.add_option("--max-answer-length", o->qa.max_answer_len, "Longest answer, in tokens")
      ->check(whole_number(1, 1 << 20))
      ->capture_default_str();
  sub.add_flag("--handle-impossible", o->qa.handle_impossible,
               "Allow the empty answer (\"no answer in the context\") when it scores best");
  sub.add_flag("--no-align-to-words", o->no_align, "Let answers start and end inside a word (token boundaries)");
  return [o] { return run_qa(*o); };
}

}  // namespace bertkit::cli
