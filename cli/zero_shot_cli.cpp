// `bertkit zero-shot`: texts ranked against candidate labels by an NLI model (commands/zero_shot.h).
#include "cli/app.h"
#include "cli/task_flags.h"
#include "cli/task_model.h"
#include "commands/zero_shot.h"
#include "core/error.h"
#include "records/record_writer.h"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <memory>
#include <optional>
#include <string>

namespace bertkit::cli {

namespace {

struct ZeroShotOptions {
  TaskFlags task;
  std::optional<std::string> labels, labels_field, labels_column;
  std::string hypothesis_template = "This example is {}.";
  bool multi_label = false;
};

// Where each record's candidate labels come from: --labels for all, or a field/column of each record.
cmd::ZeroShotSettings settings_of(ZeroShotOptions& o) {
  cmd::ZeroShotSettings s;
  s.hypothesis_template = o.hypothesis_template;
  s.multi_label = o.multi_label;
  cmd::check_hypothesis_template(s.hypothesis_template);
  if (int(o.labels.has_value()) + int(o.labels_field.has_value()) + int(o.labels_column.has_value()) != 1)
    usage_error("zero-shot needs the candidate labels: --labels 'a,b,c' for every text, or each record's own with "
                "--labels-field (JSONL) or --labels-column (CSV/TSV) — one of the three");
  check_input_format(o.task);
  const records::InputFormat format =
      o.task.texts.empty() ? records::resolve_format(o.task.inputs, input_spec(o.task).format) : records::InputFormat::Lines;
  const bool table = format == records::InputFormat::Csv || format == records::InputFormat::Tsv;
  if (o.labels) {
    s.labels = cmd::split_labels(*o.labels);
    if (s.labels.empty()) usage_error("--labels '{}' names no label (labels are separated by commas)", *o.labels);
  } else if (o.labels_field) {
    if (format != records::InputFormat::Jsonl) usage_error("--labels-field reads JSONL records; for CSV/TSV use --labels-column");
    s.labels_field = *o.labels_field;
  } else {
    if (!table) usage_error("--labels-column reads CSV/TSV rows; for JSONL use --labels-field");
    o.task.pair_column = *o.labels_column;  // the reader checks the column exists, naming the file
    s.labels_from_pair = true;
  }
  return s;
}

int run_zero_shot(ZeroShotOptions& o) {
  result_format(o.task);
  cmd::ZeroShotSettings settings = settings_of(o);
  TaskModel model = load_task_model(o.task);
  cmd::Classifier classifier(model.loaded.config, model.weights);
  const cmd::NliLabels nli = cmd::nli_labels(model.loaded.config);
  records::PipelineOptions options = pipeline_options(o.task, model);
  // As the pipeline tokenizes: only the text is cut to the model's limit, never the hypothesis.
  if (auto& t = options.tokenize.encode.truncation) t->strategy = tok::TruncationStrategy::OnlyFirst;
  options.output.pairs = false;

  if (o.task.dry_run) {
    Settings s = common_settings(o.task, model);
    s.add("nli labels", fmt::format("entailment {} (id {}), contradiction {} (id {})", classifier.labels()[nli.entailment],
                                    nli.entailment, classifier.labels()[nli.contradiction], nli.contradiction));
    s.add("candidates", !settings.labels.empty()       ? fmt::format("{}", fmt::join(settings.labels, ", "))
                        : settings.labels_from_pair ? fmt::format("each row's column \"{}\"", *o.labels_column)
                                                    : fmt::format("each record's field \"{}\"", settings.labels_field));
    s.add("hypothesis", fmt::format("\"{}\"", settings.hypothesis_template));
    s.add("scores", settings.multi_label ? "each label alone: softmax over (contradiction, entailment)"
                                         : "softmax of the entailment logits across the labels (one label: as --multi-label)");
    records::RecordWriter out("-");
    out.write(s.text());
    return 0;
  }

  cmd::ZeroShotTask task(classifier, options.limits, std::move(settings));
  return run_task(o.task, options, *model.tokenizer, task);
}

}  // namespace

Action add_zero_shot(CLI::App& sub, const GlobalOptions&) {
  auto o = std::make_shared<ZeroShotOptions>();
  add_task_flags(sub, o->task,
                 {.texts_help = "Texts to classify (default: one per line from -i files or stdin)", .pairs = false});
  sub.add_option("--labels", o->labels, "Candidate labels for every text, separated by commas");
  sub.add_option("--labels-field", o->labels_field, "JSONL: the field holding each record's labels (a list, or a text separated by commas)");
  sub.add_option("--labels-column", o->labels_column, "CSV/TSV: the column holding each row's labels, separated by commas");
  sub.add_option("--hypothesis-template", o->hypothesis_template, "The hypothesis each label is put in; {} is the label")
      ->capture_default_str();
  sub.add_flag("--multi-label", o->multi_label, "Score each label on its own (several may be true)");
  return [o] { return run_zero_shot(*o); };
}

}  // namespace bertkit::cli
