// `bertkit classify`: labels and scores of texts or text pairs (cross-encoders included).
#include "cli/app.h"
#include "records/record_pipeline.h"
#include "records/result_writer.h"
#include "cli/task_flags.h"
#include "cli/task_model.h"
#include "commands/classify.h"
#include "core/error.h"

#include <fmt/format.h>

#include <cstdint>
#include <memory>

namespace bertkit::cli {

namespace {

struct ClassifyOptions {
  TaskFlags task;
  std::string top_k;  // empty: only the best label
  std::string function = "auto";
};

class ClassifyTask : public records::BatchTask {
 public:
  // `listed`: how many labels `scores` lists (0: no `scores` field).
  ClassifyTask(cmd::Classifier& classifier, core::ScoreFunction function, std::size_t listed,
               const core::BatchLimits& limits)
      : classifier_(classifier), function_(function), listed_(listed), limits_(limits) {}

  std::unique_ptr<records::ResultWriter> results;

  void compute(const records::Batch& batch) override { logits_ = classifier_.logits(batch.encodings, limits_); }

  void write(const records::Batch& batch, std::size_t i) override {
    const std::size_t labels = classifier_.num_labels();
    const auto& names = classifier_.config().id2label;
    auto ranked = cmd::rank_labels(std::span(logits_).subspan(i * labels, labels), function_);
    results->begin(batch.records[i], batch.truncated[i])
        .field("label", names[ranked[0].label])
        .field("score", ranked[0].score);
    if (listed_) {
      const std::size_t n = std::min(listed_, ranked.size());
      results->nested("scores", [&](records::JsonLine& j) {
        j.begin_array();
        for (std::size_t r = 0; r < n; ++r)
          j.begin_object().field("label", names[ranked[r].label]).field("score", ranked[r].score).end_object();
        j.end_array();
      });
    }
    results->end();
  }

 private:
  cmd::Classifier& classifier_;
  core::ScoreFunction function_;
  std::size_t listed_;
  core::BatchLimits limits_;
  std::vector<float> logits_;
};

int run_classify(const ClassifyOptions& o) {
  const records::ResultFormat format = records::parse_result_format(o.task.format, {"jsonl", "tsv", "csv"});
  std::size_t listed = 0;
  if (!o.top_k.empty()) listed = cmd::parse_label_count(o.top_k).value_or(SIZE_MAX);

  TaskModel model = load_task_model(o.task);
  cmd::Classifier classifier(model.loaded.config, model.weights);
  const core::ScoreFunction function = cmd::parse_score_function(o.function, model.loaded.config);
  records::PipelineOptions options = pipeline_options(o.task, model);

  if (o.task.dry_run) {
    Settings s = common_settings(o.task, model);
    s.add("score function", fmt::format("{}{}", cmd::score_function_name(function),
                                        o.function == "auto" ? " (the model's default)" : ""));
    s.add("scores", listed == 0          ? "the best label only"
                    : listed == SIZE_MAX ? "every label, best first"
                                         : fmt::format("the best {} labels", listed));
    records::RecordWriter out("-");
    out.write(s.text());
    return 0;
  }

  auto reader = open_task_input(o.task);
  records::RecordWriter out(o.task.output);
  ClassifyTask task(classifier, function, listed, options.limits);
  std::vector<std::string> columns{"label", "score"};
  if (listed) columns.emplace_back("scores");
  const bool pairs = o.task.pairs || !o.task.pair_column.empty() || !o.task.pair_field.empty();
  task.results = std::make_unique<records::ResultWriter>(out, format, reader->table(), pairs, columns);
  return records::run_pipeline(*reader, *model.tokenizer, options, task, out);
}

}  // namespace

Action add_classify(CLI::App& sub, const GlobalOptions&) {
  auto o = std::make_shared<ClassifyOptions>();
  add_task_flags(sub, o->task, {.texts_help = "Texts to classify (default: one per line from -i files or stdin)",
                                .pairs = true,
                                .formats = {"jsonl", "tsv", "csv"}});
  sub.add_option("--top-k", o->top_k, "Also list the best N labels (or all) as `scores`, best first");
  sub.add_option("--function", o->function,
                 "Score function: auto (sigmoid for one label or multi-label models, else softmax), softmax, "
                 "sigmoid or none (raw logits)")
      ->capture_default_str();
  return [o] { return run_classify(*o); };
}

}  // namespace bertkit::cli
