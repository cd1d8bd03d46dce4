// `bertkit similarity`: a score per pair of texts, or the nearest corpus texts of each query.
#include "cli/app.h"
#include "records/argument_reader.h"
#include "records/open_reader.h"
#include "records/log.h"
#include "records/record_writer.h"
#include "records/record_pipeline.h"
#include "records/result_writer.h"
#include "cli/task_flags.h"
#include "cli/task_model.h"
#include "commands/embed.h"
#include "records/encode_records.h"
#include "commands/similarity.h"
#include "core/error.h"
#include "core/model/similarity.h"

#include <fmt/format.h>

#include <memory>
#include <optional>

namespace bertkit::cli {

namespace {

struct SimilarityOptions {
  TaskFlags task;
  std::string metric;
  std::vector<std::string> queries;  // --query
  std::string queries_file, corpus;
  std::size_t top_k = 10;
};

// Bi-encoder or cross-encoder, whichever the model is.
struct Scorer {
  std::optional<cmd::EmbedPlan> plan;
  std::unique_ptr<cmd::Embedder> embedder;
  std::unique_ptr<cmd::CrossEncoder> cross;
  core::Metric metric = core::Metric::Cosine;
  core::BatchLimits limits;
};

std::span<const float> row(const std::vector<float>& rows, std::size_t i, std::int64_t dim) {
  return {rows.data() + i * static_cast<std::size_t>(dim), static_cast<std::size_t>(dim)};
}

class PairTask : public records::BatchTask {
 public:
  PairTask(Scorer& scorer, records::ResultWriter& results) : scorer_(scorer), results_(results) {}

  records::TextInput model_input(const records::Record& record, std::string& text, std::string& pair) override {
    if (!scorer_.plan) return records::BatchTask::model_input(record, text, pair);
    text = cmd::model_text(*scorer_.plan, record.text);
    if (!record.has_pair) return {text, std::nullopt};
    pair = cmd::model_text(*scorer_.plan, record.text_pair);
    return {text, std::optional<std::string_view>(pair)};
  }

  void compute(const records::Batch& batch) override {
    if (scorer_.cross) {
      for (const records::Record& r : batch.records)
        if (!r.has_pair) bad_input("expected a pair of texts");
      return scorer_.cross->scores(batch.encodings, scorer_.limits, scores_);
    }
    scorer_.embedder->sentence_embeddings(batch.encodings, scorer_.limits, a_);
    scorer_.embedder->sentence_embeddings(batch.pair_encodings, scorer_.limits, b_);
    const std::int64_t dim = scorer_.embedder->dimension();
    scores_.resize(batch.size());
    for (std::size_t i = 0; i < batch.size(); ++i) scores_[i] = core::similarity(scorer_.metric, row(a_, i, dim), row(b_, i, dim));
  }

  void write(const records::Batch& batch, std::size_t i) override {
    results_.begin(batch.records[i], batch.truncated[i]).field("score", scores_[i]).end();
  }

 private:
  Scorer& scorer_;
  records::ResultWriter& results_;
  std::vector<float> a_, b_, scores_;
};

struct Query {
  records::Record record;
  std::string model_text;  // what the model sees (a cross-encoder's first text)
  bool truncated = false;
  cmd::TopK hits;
};

// Runs over the corpus: each batch is embedded (or paired with every query) once and offered to every
// query's TopK; nothing is written until the corpus is done.
class SearchTask : public records::BatchTask {
 public:
  SearchTask(Scorer& scorer, std::vector<Query>& queries, const std::vector<float>& query_rows,
             const tok::Tokenizer& tokenizer, const records::PipelineOptions& options)
      : scorer_(scorer), queries_(queries), query_rows_(query_rows), tokenizer_(tokenizer), options_(options) {}

  records::TextInput model_input(const records::Record& record, std::string& text, std::string& pair) override {
    if (!scorer_.plan) return records::BatchTask::model_input(record, text, pair);
    text = cmd::model_text(*scorer_.plan, record.text);
    return {text, std::nullopt};
  }

  void compute(const records::Batch& batch) override {
    if (scorer_.cross) return compute_cross(batch);
    scorer_.embedder->sentence_embeddings(batch.encodings, scorer_.limits, rows_);
    const std::int64_t dim = scorer_.embedder->dimension();
    const auto nq = static_cast<std::ptrdiff_t>(queries_.size());
#pragma omp parallel for schedule(dynamic, 1) if (nq > 1)
    for (std::ptrdiff_t q = 0; q < nq; ++q) {
      auto query = row(query_rows_, static_cast<std::size_t>(q), dim);
      Query& target = queries_[static_cast<std::size_t>(q)];
      for (std::size_t i = 0; i < batch.size(); ++i)
        target.hits.offer(batch.ordinals[i], core::similarity(scorer_.metric, query, row(rows_, i, dim)),
                          batch.records[i].text);
    }
  }

  void write(const records::Batch&, std::size_t) override {}

 private:
  void compute_cross(const records::Batch& batch) {
    for (Query& query : queries_) {
      inputs_.clear();
      for (const records::Record& r : batch.records) inputs_.push_back({query.model_text, std::optional<std::string_view>(r.text)});
      std::vector<records::EncodedRecord> encoded = records::encode_records(tokenizer_, options_.tokenize, inputs_);
      pairs_.clear();
      for (std::size_t i = 0; i < encoded.size(); ++i) {
        if (!encoded[i].error.empty()) bad_input("{}", encoded[i].error);
        pairs_.push_back(std::move(encoded[i].encoding));
      }
      scorer_.cross->scores(pairs_, scorer_.limits, scores_);
      for (std::size_t i = 0; i < batch.size(); ++i) query.hits.offer(batch.ordinals[i], scores_[i], batch.records[i].text);
    }
  }

  Scorer& scorer_;
  std::vector<Query>& queries_;
  const std::vector<float>& query_rows_;
  const tok::Tokenizer& tokenizer_;
  const records::PipelineOptions& options_;
  std::vector<float> rows_, scores_;
  std::vector<records::TextInput> inputs_;
  std::vector<tok::Encoding> pairs_;
};

bool search_mode(const SimilarityOptions& o) { return !o.queries.empty() || !o.queries_file.empty() || !o.corpus.empty(); }

// Every query, encoded (and embedded for a bi-encoder): they are few and held in memory.
std::vector<Query> read_queries(records::RecordReader& reader, const Scorer& scorer, const tok::Tokenizer& tokenizer,
                                const records::PipelineOptions& options, std::size_t top_k, std::vector<tok::Encoding>& encodings) {
  std::vector<Query> queries;
  records::Record record;
  while (reader.next(record)) {
    if (record.bad()) {
      if (options.on_error == records::OnError::Fail) bad_input("{}", record.error);
      records::warn("{} (skipped)", record.error);
      continue;
    }
    Query q{std::move(record), {}, false, cmd::TopK(top_k)};
    q.model_text = scorer.plan ? cmd::model_text(*scorer.plan, q.record.text) : q.record.text;
    records::TextInput input{q.model_text, std::nullopt};
    records::EncodedRecord e = std::move(records::encode_records(tokenizer, options.tokenize, std::span(&input, 1)).front());
    std::string error = e.error.empty() && e.truncated && options.refuse_truncated
                            ? "longer than the model's maximum length (--truncate error refuses it)"
                            : e.error;
    if (!error.empty()) {
      if (options.on_error == records::OnError::Fail) bad_input("{}: {}", q.record.where(), error);
      records::warn("{}: {} (skipped)", q.record.where(), error);
      continue;
    }
    q.truncated = e.truncated;
    encodings.push_back(std::move(e.encoding));
    queries.push_back(std::move(q));
  }
  return queries;
}

int run_search(const SimilarityOptions& o, TaskModel& model, Scorer& scorer, records::PipelineOptions& options) {
  if (o.corpus.empty()) usage_error("--query and --queries need --corpus FILE");
  if (o.queries.empty() == o.queries_file.empty()) usage_error("give the queries with --query TEXT or --queries FILE (one of them)");
  if (!o.task.texts.empty() || !o.task.inputs.empty()) usage_error("with --corpus, give the queries with --query or --queries, not as texts or -i");
  if (o.task.pairs || !o.task.pair_column.empty() || !o.task.pair_field.empty())
    usage_error("--pairs, --pair-column and --pair-field do not apply to a search (--corpus)");

  std::unique_ptr<records::RecordReader> query_reader;
  if (!o.queries.empty()) query_reader = std::make_unique<records::ArgumentReader>(o.queries, false, o.task.strict_utf8);
  else query_reader = records::open_reader(task_input_spec(o.task, {o.queries_file}));
  auto corpus = records::open_reader(task_input_spec(o.task, {o.corpus}));

  std::vector<tok::Encoding> query_encodings;
  std::vector<Query> queries = read_queries(*query_reader, scorer, *model.tokenizer, options, o.top_k, query_encodings);
  std::vector<float> query_rows;
  if (scorer.embedder) scorer.embedder->sentence_embeddings(query_encodings, scorer.limits, query_rows);

  const records::ResultFormat format = records::parse_result_format(o.task.format, {"jsonl", "tsv", "csv"});
  records::RecordWriter out(o.task.output);
  records::ResultWriter results(out, format, query_reader->table(), false, {"results"});
  SearchTask task(scorer, queries, query_rows, *model.tokenizer, options);
  options.one_at_a_time = false;
  options.separate_pairs = false;  // corpus records are single texts
  if (int status = records::run_pipeline(*corpus, *model.tokenizer, options, task, out); status != 0) return status;
  for (const Query& q : queries) {
    results.begin(q.record, q.truncated).nested("results", [&](records::JsonLine& j) {
      j.begin_array();
      for (const cmd::Hit& hit : q.hits.sorted())
        j.begin_object().field("index", hit.index).field("text", hit.text).field("score", hit.score).end_object();
      j.end_array();
    });
    results.end();
  }
  out.flush();
  return 0;
}

// The pairs to score: two texts given as arguments are one pair.
std::unique_ptr<records::RecordReader> open_pairs(const SimilarityOptions& o) {
  if (o.task.texts.empty() || o.task.pairs) return open_task_input(o.task);
  if (o.task.texts.size() != 2) usage_error("give two texts to compare (or --pairs with text<TAB>text_pair arguments)");
  for (const auto& t : o.task.texts)
    if (t.find('\t') != std::string::npos) usage_error("a text argument holds a tab: use --pairs with text<TAB>text_pair");
  TaskFlags flags = o.task;
  flags.texts = {o.task.texts[0] + '\t' + o.task.texts[1]};
  flags.pairs = true;
  return open_task_input(flags);
}

int run_similarity(SimilarityOptions& o) {
  records::parse_result_format(o.task.format, {"jsonl", "tsv", "csv"});
  if (o.top_k == 0) usage_error("--top-k must be at least 1");
  TaskModel model = load_task_model(o.task);
  Scorer scorer;
  records::PipelineOptions options = pipeline_options(o.task, model);
  scorer.limits = options.limits;
  if (cmd::is_cross_encoder(model.loaded.config)) {
    if (!o.metric.empty()) usage_error("--metric compares embeddings; this model is a cross-encoder and scores pairs itself");
    scorer.cross = std::make_unique<cmd::CrossEncoder>(model.loaded.config, model.weights);
  } else {
    scorer.metric = core::parse_metric(o.metric.empty() ? "cosine" : o.metric);
    scorer.plan = cmd::plan_embedding(model.loaded, {});
    scorer.embedder = std::make_unique<cmd::Embedder>(model.loaded.config, model.weights, *scorer.plan);
    options.separate_pairs = true;
  }

  if (o.task.dry_run) {
    Settings s = common_settings(o.task, model);
    if (scorer.cross) {
      s.add("scoring", "cross-encoder: the pair through the classifier, then its sigmoid");
    } else {
      s.add("scoring", fmt::format("bi-encoder: {} of the two embeddings", core::metric_name(scorer.metric)));
      s.add("pooling", scorer.plan->pooling_text);
      s.add("normalization", scorer.plan->normalize_text);
      s.add("prompt", scorer.plan->prompt_text);
    }
    if (search_mode(o)) s.add("search", fmt::format("top {} of {} per query", o.top_k, o.corpus));
    records::RecordWriter out("-");
    out.write(s.text());
    return 0;
  }
  if (search_mode(o)) return run_search(o, model, scorer, options);

  auto reader = open_pairs(o);
  records::RecordWriter out(o.task.output);
  records::ResultWriter results(out, records::parse_result_format(o.task.format, {"jsonl", "tsv", "csv"}), reader->table(), true, {"score"});
  PairTask task(scorer, results);
  return records::run_pipeline(*reader, *model.tokenizer, options, task, out);
}

}  // namespace

Action add_similarity(CLI::App& sub, const GlobalOptions&) {
  auto o = std::make_shared<SimilarityOptions>();
  add_task_flags(sub, o->task, {.texts_help = "Two texts to compare (default: pairs from -i files or stdin)",
                                .pairs = true,
                                .formats = {"jsonl", "tsv", "csv"}});
  sub.add_option("--metric", o->metric, "cosine (default), dot, euclidean or manhattan (distances are negated)");
  sub.add_option("--query", o->queries, "A query to search the corpus for (repeatable)");
  sub.add_option("--queries", o->queries_file, "A file of queries, one per record");
  sub.add_option("--corpus", o->corpus, "The file to search: one text per record");
  sub.add_option("--top-k", o->top_k, "Corpus texts per query")->capture_default_str();
  return [o] { return run_similarity(*o); };
}

}  // namespace bertkit::cli
