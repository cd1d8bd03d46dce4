// `bertkit classify`: labels and scores of texts or text pairs (cross-encoders included).
#include "cli/app.h"
#include "cli/choice_flags.h"
#include "records/record_writer.h"
#include "cli/task_flags.h"
#include "cli/task_model.h"
#include "commands/classify.h"
#include "core/error.h"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <cstdint>
#include <memory>

namespace bertkit::cli {

namespace {

struct ClassifyOptions {
  TaskFlags task;
  std::string top_k;  // empty: only the best label
  std::string function = "auto";
};

int run_classify(const ClassifyOptions& o) {
  result_format(o.task);
  std::size_t listed = 0;
  if (!o.top_k.empty()) listed = cli::parse_label_count(o.top_k).value_or(SIZE_MAX);

  TaskModel model = load_task_model(o.task);
  cmd::Classifier classifier(model.loaded.config, model.weights);
  const core::ScoreFunction function = cli::parse_score_function(o.function, model.loaded.config);
  records::PipelineOptions options = pipeline_options(o.task, model);

  if (o.task.dry_run) {
    Settings s = common_settings(o.task, model);
    // The next-sentence head's labels are not config.json's.
    s.set("labels", fmt::format("{}", fmt::join(classifier.labels(), ", ")));
    s.add("score function", fmt::format("{}{}", cmd::score_function_name(function),
                                        o.function == "auto" ? " (the model's default)" : ""));
    s.add("scores", listed == 0          ? "the best label only"
                    : listed == SIZE_MAX ? "every label, best first"
                                         : fmt::format("the best {} labels", listed));
    records::RecordWriter out("-");
    out.write(s.text());
    return 0;
  }

  cmd::ClassifyTask task(classifier, function, listed, options.limits);
  return run_task(o.task, options, *model.tokenizer, task);
}

}  // namespace

Action add_classify(CLI::App& sub, const GlobalOptions&) {
  auto o = std::make_shared<ClassifyOptions>();
  add_task_flags(sub, o->task, {.texts_help = "Texts to classify (default: one per line from -i files or stdin)"});
  sub.add_option("--top-k", o->top_k, "Also list the best N labels (or all) as `scores`, best first");
  sub.add_option("--function", o->function,
                 "Score function: auto (sigmoid for one label or multi-label models, else softmax), softmax, "
                 "sigmoid or none (raw logits)")
      ->capture_default_str();
  return [o] { return run_classify(*o); };
}

}  // namespace bertkit::cli
