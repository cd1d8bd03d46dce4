// `bertkit rerank`: each query's documents scored by a cross-encoder and sorted best first
// (commands/rerank.h): JSONL records holding a query and its documents, or (query, document) rows
// grouped by query, or the documents of one --query.
#include "cli/app.h"
#include "cli/choice_flags.h"
#include "cli/colbert_model.h"
#include "cli/embedding_model.h"
#include "cli/score_modes.h"
#include "commands/bi_encoder_scorer.h"
#include "cli/number_flags.h"
#include "cli/task_flags.h"
#include "cli/task_model.h"
#include "commands/classify.h"
#include "commands/rerank.h"
#include "core/error.h"
#include "records/record_writer.h"

#include <fmt/format.h>

#include <memory>
#include <optional>
#include <string>

namespace bertkit::cli {

namespace {

struct RerankOptions {
  TaskFlags task;
  std::optional<std::string> query;
  std::optional<std::size_t> top_k;
  bool return_documents = false;
  std::string documents_field = "documents";
  std::string function = "auto";
  CLI::Option* documents = nullptr;  // whether --documents-field was given
  ScoreModeFlags modes;              // --mode, --weights, --metric: a bi-encoder scores as similarity does
};

enum class Shape { Lists, Rows };

// Which input shape the flags and the input's format describe; fills in rerank's default names
// (query, document, documents) where the user named none.
Shape resolve_shape(RerankOptions& o) {
  TaskFlags& t = o.task;
  check_input_format(t);
  const records::InputFormat format =
      t.texts.empty() ? records::resolve_format(t.inputs, input_spec(t).format) : records::InputFormat::Lines;
  const bool table = format == records::InputFormat::Csv || format == records::InputFormat::Tsv;
  if (o.query) {
    if (t.pairs || t.pair_column_flag->count() || t.pair_field_flag->count())
      usage_error("with --query every record is one document: --pairs, --pair-column and --pair-field do not apply");
    if (o.documents->count()) usage_error("--documents-field reads JSONL records holding their documents; with --query each record is one document");
    return Shape::Rows;
  }
  if (format == records::InputFormat::Jsonl && !t.pair_field_flag->count()) {
    if (!t.field_flag->count()) t.field = "query";
    return Shape::Lists;
  }
  if (o.documents->count()) usage_error("--documents-field applies to JSONL records holding their documents");
  if (table) {
    if (!t.column_flag->count()) t.column = "query";
    if (!t.pair_column_flag->count()) t.pair_column = "document";
  } else if (format == records::InputFormat::Jsonl) {
    if (!t.field_flag->count()) t.field = "query";
  } else if (!t.pairs) {
    usage_error("rerank needs queries: --query TEXT (the records are its documents), JSONL records {{\"query\": ..., "
                "\"documents\": [...]}} (--jsonl on standard input), CSV/TSV rows with query and document columns, or --pairs lines "
                "QUERY<TAB>DOCUMENT");
  }
  return Shape::Rows;
}

int run_scorer(const RerankOptions& o, Shape shape, const TaskModel& model, cmd::PairScorer& scorer,
               const std::string& scoring);

int run_rerank(RerankOptions& o) {
  result_format(o.task);
  const Shape shape = resolve_shape(o);
  if (o.return_documents && shape == Shape::Rows)
    usage_error("--return-documents applies to JSONL records holding their documents; rows already carry theirs");
  if (o.function != "auto" && o.function != "sigmoid" && o.function != "none")
    usage_error("unknown --function '{}' (expected auto, sigmoid or none)", o.function);
  EmbeddingModel loaded = load_embedding_model(o.task);
  if (loaded.table)
    usage_error("rerank needs a transformer; {} is a static embedding model: score with similarity --query --corpus",
                o.task.model);
  TaskModel& model = *loaded.transformer;
  const core::ModelConfig& config = model.loaded.config;
  const bool modes_given = !o.modes.mode.empty() || o.modes.weights || !o.modes.metric.empty();
  if (is_colbert(model)) {
    if (o.function != "auto") usage_error("--function applies to cross-encoders; a ColBERT model scores by MaxSim");
    if (modes_given) usage_error("--mode, --weights and --metric apply to bi-encoders; a ColBERT model scores by MaxSim");
    ColbertPairs colbert = colbert_pairs(o.task, model, core::MaxSimReduction::Sum);
    return run_scorer(o, shape, model, *colbert.scorer,
                      "MaxSim of the query's ColBERT vectors against the document's (PyLate)");
  }
  if (modes_given && !cmd::is_cross_encoder(config)) {
    if (o.function != "auto") usage_error("--function applies to cross-encoders; this model compares embeddings (--mode)");
    cmd::Scorer scorer;
    std::string metric_from;
    plan_score_modes(o.modes, loaded, scorer, metric_from);
    cmd::EmbedOptions embed;
    embed.vectors = scorer.plan->vectors;
    scorer.plan = loaded.plan(embed);
    attach_embedder(loaded, scorer);
    cmd::BiEncoderScorer pairs(scorer);
    return run_scorer(o, shape, model, pairs, scoring_text(scorer, metric_from) + ", the query's against each document's");
  }
  if (modes_given) usage_error("--mode, --weights and --metric apply to bi-encoders; this model is a cross-encoder");
  if (config.absent_head) core::require_head(config, cmd::is_cross_encoder, "rerank", "cross-encoder");
  if (!cmd::is_cross_encoder(config))
    usage_error("rerank needs a cross-encoder (a sequence-classification model with one label); {} {}",
                config.architecture,
                config.head == core::HeadKind::SequenceClassification
                    ? fmt::format("has {} labels", config.num_labels)
                    : "has no sequence-classification head (for a bi-encoder, give --mode: dense, sparse, colbert or "
                      "hybrid)");
  const core::ScoreFunction function =
      o.function == "auto" ? cmd::cross_encoder_function(config) : cli::parse_score_function(o.function, config);
  cmd::CrossEncoder scorer(config, model.weights, function);
  return run_scorer(o, shape, model, scorer,
                    fmt::format("cross-encoder: the (query, document) pair through the classifier, then {}",
                                function == core::ScoreFunction::Sigmoid ? "its sigmoid" : "nothing (the raw logit)"));
}

int run_scorer(const RerankOptions& o, Shape shape, const TaskModel& model, cmd::PairScorer& scorer,
               const std::string& scoring) {
  records::PipelineOptions options = pipeline_options(o.task, model);
  cmd::RerankSettings settings{o.top_k, o.return_documents, o.documents_field, o.query};

  if (o.task.dry_run) {
    Settings s = common_settings(o.task, model);
    s.add("scoring", scoring);
    s.add("shape", shape == Shape::Lists
                       ? fmt::format("lists: a record per query, documents in field \"{}\"", o.documents_field)
                       : o.query ? "rows: every record a document of --query"
                                 : "rows: a record per (query, document), the rows of each query one group wherever they are");
    s.add("top-k", o.top_k ? std::to_string(*o.top_k) : "all");
    records::RecordWriter out("-");
    out.write(s.text());
    return 0;
  }

  if (shape == Shape::Lists) {
    cmd::RerankListTask task(scorer, options.limits, std::move(settings));
    return run_task(o.task, options, *model.tokenizer, task);
  }
  options.output.pairs = !o.query;
  cmd::RerankRowTask task(scorer, options.limits, std::move(settings));
  return run_task(o.task, options, *model.tokenizer, task);
}

}  // namespace

Action add_rerank(CLI::App& sub, const GlobalOptions&) {
  auto o = std::make_shared<RerankOptions>();
  add_task_flags(sub, o->task,
                 {.texts_help = "Documents to rank against --query (default: records from -i files or stdin)"});
  sub.add_option("--query", o->query, "One query for every document read (the texts, lines, column or field)");
  sub.add_option("--top-k", o->top_k, "Documents kept per query, best first (default: all)")->check(whole_number(1, 1 << 30));
  sub.add_flag("--return-documents", o->return_documents, "JSONL lists: each result carries its document's text");
  o->documents = sub.add_option("--documents-field", o->documents_field, "JSONL lists: the field holding each query's documents")
                     ->capture_default_str();
  sub.add_option("--mode", o->modes.mode,
                 "A bi-encoder: which vectors score, dense (cosine or --metric), sparse (dot product), colbert (MaxSim, "
                 "mean over the query's vectors) or hybrid (--weights)");
  sub.add_option("--weights", o->modes.weights, "--mode hybrid: DENSE,SPARSE,COLBERT weights (default 1,1,1)");
  sub.add_option("--metric", o->modes.metric, "--mode dense: cosine, dot, euclidean or manhattan (default: the model's)");
  sub.add_option("--function", o->function,
                 "The score: auto (the activation the checkpoint names, else sigmoid), sigmoid or none (the raw logit)")
      ->capture_default_str();
  return [o] { return run_rerank(*o); };
}

}  // namespace bertkit::cli
