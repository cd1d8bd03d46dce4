// `bertkit similarity`: a score per pair of texts, or the nearest corpus texts of each query.
#include "cli/app.h"
#include "cli/choice_flags.h"
#include "cli/calibration.h"
#include "cli/colbert_model.h"
#include "cli/embedding_flags.h"
#include "cli/embedding_model.h"
#include "cli/empty_values.h"
#include "cli/list_flags.h"
#include "cli/number_flags.h"
#include "cli/score_modes.h"
#include "cli/task_flags.h"
#include "cli/task_model.h"
#include "commands/classify.h"
#include "commands/similarity.h"
#include "commands/similarity_search.h"
#include "core/error.h"
#include "records/record_writer.h"

#include <fmt/format.h>

#include <cmath>
#include <cstdlib>
#include <memory>
#include <optional>

namespace bertkit::cli {

namespace {

struct SimilarityOptions {
  TaskFlags task;
  std::string metric;
  std::string function = "auto";     // a cross-encoder's: auto (the checkpoint's), sigmoid or none
  std::vector<std::string> queries;  // --query
  std::string queries_file, corpus;
  std::size_t top_k = 10;
  std::optional<std::int64_t> truncate_dim;
  std::string precision = "float32";
  std::string calibration;
  std::string mode;  // --mode dense|sparse|colbert|hybrid: which of the model's vectors score; empty: its default
  std::optional<std::string> weights;  // --weights DENSE,SPARSE,COLBERT of --mode hybrid
  // A search's prompts: the queries' and the corpus texts' own (e5's "query: " and "passage: ").
  std::optional<std::string> query_prefix, query_prompt, corpus_prefix, corpus_prompt;
  // A search's shape flags for one of its two files (else --column/--field name the text in both).
  std::optional<std::string> queries_column, queries_field, corpus_column, corpus_field;
};

// --corpus-column/--corpus-field (or --queries-...): the text's column or field in that one file.
void name_text(records::InputSpec& spec, const std::optional<std::string>& column, const std::optional<std::string>& field,
               const std::string& flags) {
  if (!column && !field) return;
  const records::InputFormat format = records::resolve_format(spec.paths, spec.format);
  const bool table = format == records::InputFormat::Csv || format == records::InputFormat::Tsv;
  if (column && !table) usage_error("--{}-column names a column of a CSV/TSV file; {} is not one", flags, spec.paths.front());
  if (field && format != records::InputFormat::Jsonl)
    usage_error("--{}-field names a field of a JSONL file; {} is not one", flags, spec.paths.front());
  if (column) {
    spec.column = *column;
    spec.given.column = true;
  }
  if (field) {
    spec.field = *field;
    spec.given.field = true;
  }
}

// How a search embeds its queries and its corpus texts: each with its own prefix or prompt.
void plan_search_prompts(const SimilarityOptions& o, const EmbeddingModel& model, cmd::EmbedOptions embed,
                         cmd::Scorer& scorer) {
  if (o.query_prefix && o.query_prompt) usage_error("give --query-prefix or --query-prompt, not both");
  if (o.corpus_prefix && o.corpus_prompt) usage_error("give --corpus-prefix or --corpus-prompt, not both");
  embed.prefix = o.corpus_prefix;
  embed.prompt = o.corpus_prompt;
  scorer.plan = model.plan(embed);
  embed.prefix = o.query_prefix;
  embed.prompt = o.query_prompt;
  scorer.query_plan = model.plan(embed);
}

bool search_mode(const SimilarityOptions& o) { return !o.queries.empty() || !o.queries_file.empty() || !o.corpus.empty(); }

// Sparse and ColBERT vectors are scored unquantised and whole.
void refuse_dense_flags(const SimilarityOptions& o, const cmd::Scorer& scorer, core::Precision precision) {
  const auto& kinds = scorer.plan->vectors;
  if (kinds == std::vector{cmd::VectorKind::Dense}) return;
  if (precision != core::Precision::Float32 || !o.calibration.empty())
    usage_error("--precision quantises dense embeddings; sparse and ColBERT vectors are scored as float32");
  if (o.truncate_dim) usage_error("--truncate-dim truncates dense embeddings; sparse and ColBERT vectors are scored whole");
}

bool prompts_given(const SimilarityOptions& o) {
  return o.query_prefix || o.query_prompt || o.corpus_prefix || o.corpus_prompt;
}

int run_search(const SimilarityOptions& o, cmd::Scorer& scorer, const tok::Tokenizer& tokenizer,
               const records::PipelineOptions& options) {
  if (o.corpus.empty()) usage_error("--query and --queries need --corpus FILE");
  if (o.queries.empty() == o.queries_file.empty()) usage_error("give the queries with --query TEXT or --queries FILE (one of them)");
  if (!o.task.texts.empty() || !o.task.inputs.empty()) usage_error("with --corpus, give the queries with --query or --queries, not as texts or -i");
  if (o.task.pairs || !o.task.pair_column.empty() || !o.task.pair_field.empty())
    usage_error("--pairs, --pair-column and --pair-field do not apply to a search (--corpus)");
  check_input_format(o.task);

  cmd::SearchOptions search;
  search.top_k = o.top_k;
  search.corpus = options.input;
  search.corpus.paths = {o.corpus};
  search.queries = options.input;
  if (!o.queries.empty()) {
    // --query texts are read as text arguments, whatever the corpus's format.
    search.queries = records::InputSpec{};
    search.queries.texts = o.queries;
    search.queries.options.strict_utf8 = o.task.strict_utf8;
  } else {
    search.queries.paths = {o.queries_file};
    // The shape flags are checked against the corpus; a queries file of another kind reads them where they
    // apply (questions.txt with --corpus docs.jsonl --field body).
    search.queries.given = {};
    name_text(search.queries, o.queries_column, o.queries_field, "queries");
  }
  if (!o.queries.empty() && (o.queries_column || o.queries_field))
    usage_error("--queries-column and --queries-field name the text in a --queries file; --query gives the text itself");
  name_text(search.corpus, o.corpus_column, o.corpus_field, "corpus");
  return cmd::search(search, scorer, tokenizer, options);
}

// --dry-run: how a bi-encoder's embeddings are made and compared.
void add_bi_encoder_settings(Settings& s, const SimilarityOptions& o, const cmd::Scorer& scorer, core::Precision precision,
                             const std::string& metric_from) {
  s.add("scoring", scoring_text(scorer, metric_from));
  s.add("pooling", scorer.plan->pooling_text);
  s.add("normalization", scorer.plan->normalize_text);
  if (scorer.plan->truncate_dim)
    s.add("dimension", fmt::format("{} (the first of each embedding, {})", scorer.embedder->dimension(),
                                   scorer.plan->truncate_from));
  if (scorer.query_plan) {
    s.add("query prompt", scorer.query_plan->prompt_text);
    s.add("corpus prompt", scorer.plan->prompt_text);
  } else {
    s.add("prompt", scorer.plan->prompt_text);
  }
  if (precision != core::Precision::Float32)
    s.add("precision", precision == core::Precision::Binary || precision == core::Precision::Ubinary
                           ? fmt::format("{} (scored by the negated Hamming distance of the bits)", o.precision)
                           : fmt::format("{} (ranges of {}; the metric over the integer values)", o.precision, o.calibration));
}

// A ColBERT model scores pairs, and a search's queries against the corpus texts, by MaxSim (PyLate's sum
// over the query's vectors): the flags of embedding comparisons do not apply.
void plan_colbert_scoring(const SimilarityOptions& o, TaskModel& model, cmd::Scorer& scorer) {
  if (prompts_given(o))
    usage_error("--query-prefix, --corpus-prefix, --query-prompt and --corpus-prompt do not apply to a ColBERT model: its "
                "query and document prefixes are its own");
  if (!o.metric.empty() || o.truncate_dim || o.precision != "float32" || !o.calibration.empty() || o.function != "auto")
    usage_error("--metric, --truncate-dim, --precision, --calibration and --function do not apply to a ColBERT model: "
                "it scores pairs by MaxSim");
  ColbertPairs pairs = colbert_pairs(o.task, model, core::MaxSimReduction::Sum);
  scorer.plan = pairs.encoder->plan().text;
  scorer.colbert_encoder = std::move(pairs.encoder);
  scorer.colbert = std::move(pairs.scorer);
}

// A cross-encoder scores each pair itself: the embedding flags are refused, and the score's function
// is --function's or the model's own.
core::ScoreFunction plan_cross_encoder(const SimilarityOptions& o, const TaskModel& transformer,
                                       core::Precision precision, cmd::Scorer& scorer) {
  const core::LoadedModel& loaded = transformer.loaded;
  if (precision != core::Precision::Float32 || !o.calibration.empty())
    usage_error("--precision quantises embeddings; this model is a cross-encoder and scores pairs itself");
  if (o.truncate_dim) usage_error("--truncate-dim truncates embeddings; this model is a cross-encoder and scores pairs itself");
  if (!o.metric.empty()) usage_error("--metric compares embeddings; this model is a cross-encoder and scores pairs itself");
  if (prompts_given(o))
    usage_error("--query-prefix, --corpus-prefix, --query-prompt and --corpus-prompt shape the texts a bi-encoder "
                "embeds; this model is a cross-encoder and reads the pair itself");
  if (o.function != "auto" && o.function != "sigmoid" && o.function != "none")
    usage_error("unknown --function '{}' (expected auto, sigmoid or none)", o.function);
  const core::ScoreFunction function = o.function == "auto" ? cmd::cross_encoder_function(loaded.config)
                                                            : cli::parse_score_function(o.function, loaded.config);
  scorer.cross = std::make_unique<cmd::CrossEncoder>(loaded.config, transformer.weights, function);
  return function;
}

int run_similarity(SimilarityOptions& o) {
  result_format(o.task);
  EmbeddingModel model = load_embedding_model(o.task);
  cmd::Scorer scorer;
  if (model.transformer && is_colbert(*model.transformer)) plan_colbert_scoring(o, *model.transformer, scorer);
  records::PipelineOptions options = model.pipeline_options(o.task);
  scorer.limits = options.limits;
  core::ScoreFunction function = core::ScoreFunction::None;
  std::string metric_from;
  const core::Precision precision = precision_flag(o.precision);
  if (precision != core::Precision::Float32 && !search_mode(o))
    usage_error("--precision applies to a search (--query or --queries with --corpus), where embeddings are stored quantised");
  if (!search_mode(o) && (prompts_given(o) || o.queries_column || o.queries_field || o.corpus_column || o.corpus_field))
    usage_error("--query-prefix, --corpus-prefix, --query-prompt, --corpus-prompt and the --queries-/--corpus- column "
                "and field flags apply to a search (--query or --queries with --corpus)");
  if (scorer.colbert) {
    // planned by plan_colbert_scoring, before the pipeline's options took its length
  } else if (model.transformer && cmd::is_cross_encoder(model.transformer->loaded.config)) {
    function = plan_cross_encoder(o, *model.transformer, precision, scorer);
  } else {
    if (o.function != "auto") usage_error("--function applies to cross-encoders; this model compares embeddings (--metric)");
    plan_score_modes({o.mode, o.weights, o.metric}, model, scorer, metric_from);
    refuse_dense_flags(o, scorer, precision);
    cmd::EmbedOptions embed;
    embed.truncate_dim = o.truncate_dim;
    embed.vectors = scorer.plan->vectors;
    if (search_mode(o)) plan_search_prompts(o, model, embed, scorer);
    else scorer.plan = model.plan(embed);
    attach_embedder(model, scorer);
    scorer.precision = precision;
    scorer.ranges = calibration_ranges(o.calibration, precision, scorer.embedder->dimension());
    if (!o.calibration.empty()) options.read_files.push_back({o.calibration, "the --calibration file"});
    // A search streams its corpus, so the int8/uint8 ranges cannot be the corpus's own.
    if ((precision == core::Precision::Int8 || precision == core::Precision::Uint8) && !scorer.ranges)
      usage_error("--precision {} needs --calibration FILE.npy: the ranges of embeddings like the corpus's (bertkit "
                  "embed --format npy writes them)", o.precision);
  }

  if (o.task.dry_run) {
    Settings s = model.settings(o.task);
    if (scorer.colbert) {
      s.add("scoring", "MaxSim of the text's ColBERT query vectors against the pair's document vectors (PyLate)");
    } else if (scorer.cross) {
      s.add("scoring", fmt::format("cross-encoder: the pair through the classifier, then {}{}",
                                   function == core::ScoreFunction::Sigmoid ? "its sigmoid" : "nothing (the raw logit)",
                                   o.function != "auto"                            ? " (--function)"
                                   : model.transformer->loaded.config.cross_encoder_activation.empty()
                                       ? " (sentence-transformers' default)"
                                       : fmt::format(" ({} of config.json)", model.transformer->loaded.config.cross_encoder_activation)));
    } else {
      add_bi_encoder_settings(s, o, scorer, precision, metric_from);
    }
    if (search_mode(o)) {
      s.set("input", o.queries.empty() ? fmt::format("queries from {}, corpus {}", o.queries_file, o.corpus)
                                       : fmt::format("{} --query text{}, corpus {}", o.queries.size(),
                                                     o.queries.size() == 1 ? "" : "s", o.corpus));
      s.add("search", fmt::format("top {} of {} per query", o.top_k, o.corpus));
    }
    records::RecordWriter out("-");
    out.write(s.text());
    return 0;
  }
  if (search_mode(o)) return run_search(o, scorer, model.tokenizer(), options);

  options.input.texts_pair = true;
  options.output.pairs = true;
  cmd::PairTask task(scorer);
  return run_task(o.task, options, model.tokenizer(), task);
}

}  // namespace

Action add_similarity(CLI::App& sub, const GlobalOptions&) {
  auto o = std::make_shared<SimilarityOptions>();
  add_task_flags(sub, o->task, {.texts_help = "Two texts to compare (default: pairs from -i files or stdin)"});
  sub.add_option("--metric", o->metric,
                 "cosine, dot, euclidean or manhattan (distances are negated); default: the model's similarity_fn_name, "
                 "else cosine");
  sub.add_option("--function", o->function,
                 "A cross-encoder's score: auto (the activation the checkpoint names, else sigmoid), sigmoid or none "
                 "(the raw logit)")
      ->capture_default_str();
  sub.add_option("--query", o->queries, "A query to search the corpus for (repeatable)");
  sub.add_option("--queries", o->queries_file, "A file of queries, one per record");
  sub.add_option("--corpus", o->corpus, "The file to search: one text per record");
  const auto optional_text = [&](const char* name, std::optional<std::string>& to, const char* help) {
    return sub.add_option_function<std::string>(name, [&to](const std::string& v) { to = v; }, help);
  };
  // "" is no prefix, not the checkpoint's default prompt (as embed's --prefix "").
  optional_text("--query-prefix", o->query_prefix, "A search: text put before every query (e.g. \"query: \")")
      ->check(may_be_empty());
  optional_text("--corpus-prefix", o->corpus_prefix, "A search: text put before every corpus text (e.g. \"passage: \")")
      ->check(may_be_empty());
  optional_text("--query-prompt", o->query_prompt, "A search: the queries' prompt, by name from config_sentence_transformers.json");
  optional_text("--corpus-prompt", o->corpus_prompt, "A search: the corpus texts' prompt, by name from config_sentence_transformers.json");
  optional_text("--queries-column", o->queries_column, "The text column of a CSV/TSV --queries file (default: --column)");
  optional_text("--queries-field", o->queries_field, "The text field of a JSONL --queries file (default: --field)");
  optional_text("--corpus-column", o->corpus_column, "The text column of a CSV/TSV --corpus file (default: --column)");
  optional_text("--corpus-field", o->corpus_field, "The text field of a JSONL --corpus file (default: --field)");
  sub.add_option("--top-k", o->top_k, "Corpus texts per query")->check(whole_number(1, 1 << 20))->capture_default_str();
  // The upper bound is the model's dimension, checked once it is loaded.
  sub.add_option_function<std::int64_t>("--truncate-dim", [o](std::int64_t n) { o->truncate_dim = n; },
                                        "Score the first N dimensions of the embeddings (Matryoshka; default: the "
                                        "model's truncate_dim)")
      ->check(whole_number(0, 1 << 24));
  sub.add_option("--precision", o->precision,
                 "Search over embeddings quantised as sentence-transformers' quantize_embeddings: float32, int8, uint8 "
                 "(the metric over the integers, with --calibration), binary or ubinary (negated Hamming distance)")
      ->capture_default_str();
  sub.add_option("--calibration", o->calibration, "An .npy of float32 embeddings [n, dim] whose ranges int8/uint8 use");
  sub.add_option("--mode", o->mode,
                 "Which vectors score: dense (cosine or --metric), sparse (dot product), colbert (MaxSim, averaged "
                 "over the first text's vectors) or hybrid (their weighted mean, --weights); default: the model's "
                 "one (sparse for a SparseEncoder)");
  sub.add_option("--weights", o->weights,
                 "--mode hybrid: DENSE,SPARSE,COLBERT weights (FlagEmbedding's order; default 1,1,1; 0 leaves a kind out)");
  return [o] { return run_similarity(*o); };
}

}  // namespace bertkit::cli
