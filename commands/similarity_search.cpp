#include "commands/similarity_search.h"

#include "core/error.h"
#include "core/model/maxsim.h"
#include "core/setting.h"
#include "records/output_guard.h"
#include "records/log.h"

#include <optional>

namespace bertkit::cmd {

namespace {

struct Query {
  records::Record record;
  std::string model_text;  // what the model sees (a cross-encoder's first text)
  bool truncated = false;
  TopK hits;
};

// A query skipped for an error (--on-error skip): written in its place, after `position` good queries.
struct FailedQuery {
  std::size_t position;
  records::Record record;
  std::string error;
};

// The rows as --precision compares them: float32 as they are; int8/uint8 quantised, their integer
// values back in `rows`; binary/ubinary quantised into `bits` (one packed row of `width` bytes each).
void quantize_rows(const Scorer& scorer, std::int64_t dim, std::vector<float>& rows, std::vector<std::uint8_t>& bits) {
  if (scorer.precision == core::Precision::Float32) return;
  const auto d = static_cast<std::size_t>(dim);
  const std::size_t n = rows.size() / d, width = core::quantized_width(scorer.precision, d);
  bits.resize(n * width);
  const core::Ranges* ranges = scorer.ranges ? &*scorer.ranges : nullptr;
  for (std::size_t i = 0; i < n; ++i) {
    std::span<float> row(rows.data() + i * d, d);
    std::span<std::uint8_t> q(bits.data() + i * width, width);
    core::quantize_row(scorer.precision, row, ranges, q);
    if (scorer.precision == core::Precision::Int8 || scorer.precision == core::Precision::Uint8)
      core::quantized_values(scorer.precision, q, row);
  }
}

// What a hit's own fields are called (the corpus record's fields come between them).
struct HitNames {
  std::string index, score;
  std::vector<std::string> all() const { return {index, score}; }
};

// Runs over the corpus: each batch is embedded once (or, for a cross-encoder, each corpus text paired
// with every query: one model input per query) and offered to every query's TopK; nothing is written
// until the corpus is done.
class SearchTask : public records::RecordTask {
 public:
  SearchTask(Scorer& scorer, std::vector<Query>& queries, const std::vector<float>& query_rows,
             const std::vector<std::uint8_t>& query_bits, const TextVectors& query_vectors,
             const std::vector<std::vector<float>>& query_colbert, HitNames names)
      : scorer_(scorer), queries_(queries), query_rows_(query_rows), query_bits_(query_bits),
        query_vectors_(query_vectors), query_colbert_(query_colbert), names_(std::move(names)) {}

  std::vector<std::string> result_fields() const override { return {"results"}; }

  void model_inputs(const records::Record& record, records::ModelInputs& inputs) override {
    // Each hit echoes its corpus record: a member named like a hit's own field would be written twice.
    records::refuse_collisions(names_.all(), record);
    if (scorer_.cross) {
      for (const Query& q : queries_) inputs.texts.push_back({q.model_text, std::optional<std::string_view>(record.text)});
      return;
    }
    if (scorer_.colbert) return scorer_.colbert->add_document(record.text, record.text, inputs);
    inputs.text = model_text(*scorer_.plan, record.text);
    inputs.texts.push_back({inputs.text, std::nullopt});
  }

  void compute(const records::Batch& batch) override {
    if (scorer_.cross) return compute_cross(batch);
    if (scorer_.colbert) return compute_colbert(batch);
    if (!scorer_.dense_only()) return compute_vectors(batch);
    scorer_.embedder->sentence_embeddings(batch.encodings, scorer_.limits, rows_);
    const std::int64_t dim = scorer_.embedder->dimension();
    quantize_rows(scorer_, dim, rows_, bits_);
    const bool hamming = scorer_.precision == core::Precision::Binary || scorer_.precision == core::Precision::Ubinary;
    const std::size_t width = core::quantized_width(scorer_.precision, static_cast<std::size_t>(dim));
    const auto nq = static_cast<std::ptrdiff_t>(queries_.size());
#pragma omp parallel for schedule(dynamic, 1) if (nq > 1)
    for (std::ptrdiff_t q = 0; q < nq; ++q) {
      const auto qi = static_cast<std::size_t>(q);
      auto query = embedding_row(query_rows_, qi, dim);
      Query& target = queries_[qi];
      for (std::size_t i = 0; i < batch.size(); ++i) {
        const float score =
            hamming ? -static_cast<float>(core::hamming_distance(std::span(query_bits_).subspan(qi * width, width),
                                                                 std::span(bits_).subspan(i * width, width)))
                    : core::similarity(scorer_.metric, query, embedding_row(rows_, i, dim));
        target.hits.offer(batch.ordinals[i], score, batch.records[i]);
      }
    }
  }

  void write(const records::Batch&, std::size_t, records::RecordOutput&) override {}
  // A bad corpus record is reported and left out of the hits: the output's rows are the queries'.
  void write_failed(const records::Record&, const std::string&, records::RecordOutput&) override {}

 private:
  // Input q of corpus record i is (query q, text i). One model call per query over the batch's texts.
  void compute_cross(const records::Batch& batch) {
    for (std::size_t q = 0; q < queries_.size(); ++q) {
      pairs_.clear();
      for (std::size_t i = 0; i < batch.size(); ++i) pairs_.push_back(batch.encodings[batch.first_input[i] + q]);
      scorer_.cross->scores(pairs_, scorer_.limits, scores_);
      for (std::size_t i = 0; i < batch.size(); ++i) queries_[q].hits.offer(batch.ordinals[i], scores_[i], batch.records[i]);
    }
  }

  // Sparse and BGE-M3's ColBERT vectors, or their hybrid: each query's against each text's, as a pair's.
  void compute_vectors(const records::Batch& batch) {
    corpus_vectors_.embed(scorer_, batch.encodings, scorer_.limits);
    parts_.resize(scorer_.plan->vectors.size());
    for (std::size_t q = 0; q < queries_.size(); ++q)
      for (std::size_t i = 0; i < batch.size(); ++i)
        queries_[q].hits.offer(batch.ordinals[i], pair_score(scorer_, query_vectors_, q, corpus_vectors_, i, parts_),
                               batch.records[i]);
  }

  // A PyLate ColBERT model: the texts as documents, MaxSim of each query's vectors against theirs.
  void compute_colbert(const records::Batch& batch) {
    sides_.assign(batch.encodings.size(), 0);
    scorer_.colbert_encoder->vectors(batch.encodings, sides_, scorer_.limits, colbert_);
    const std::int64_t dim = scorer_.colbert_encoder->dimension();
    for (std::size_t q = 0; q < queries_.size(); ++q)
      for (std::size_t i = 0; i < batch.size(); ++i)
        queries_[q].hits.offer(batch.ordinals[i], core::maxsim(query_colbert_[q], colbert_[i], dim, core::MaxSimReduction::Sum),
                               batch.records[i]);
  }

  Scorer& scorer_;
  std::vector<Query>& queries_;
  const std::vector<float>& query_rows_;
  const std::vector<std::uint8_t>& query_bits_;
  const TextVectors& query_vectors_;
  const std::vector<std::vector<float>>& query_colbert_;
  TextVectors corpus_vectors_;
  std::vector<float> parts_;
  std::vector<std::uint8_t> sides_;
  std::vector<std::vector<float>> colbert_;
  HitNames names_;
  std::vector<float> rows_, scores_;
  std::vector<std::uint8_t> bits_;
  std::vector<tok::Encoding> pairs_;  // a cross-encoder's: one query with each text of the batch
};

// Every query, encoded (and embedded for a bi-encoder): they are few and held in memory.
std::vector<Query> read_queries(records::RecordReader& reader, const Scorer& scorer, const tok::Tokenizer& tokenizer,
                                const records::PipelineOptions& options, std::size_t top_k,
                                std::vector<tok::Encoding>& encodings, std::vector<FailedQuery>& failed) {
  std::vector<Query> queries;
  records::Record record;
  while (reader.next(record)) {
    if (record.bad()) {
      if (options.on_error == records::OnError::Fail) bad_input("{}", record.error);
      records::warn("{} (skipped)", record.error);
      failed.push_back({queries.size(), record, record.error});
      continue;
    }
    Query q{std::move(record), {}, false, TopK(top_k)};
    const std::optional<EmbedPlan>& plan = scorer.query_plan ? scorer.query_plan : scorer.plan;
    q.model_text = plan ? model_text(*plan, q.record.text) : q.record.text;
    records::TextInput input{q.model_text, std::nullopt};
    records::EncodedRecords e = records::encode_records(tokenizer, options.tokenize, std::span(&input, 1));
    std::string error = e.errors[0] ? e.errors[0]->what()
                        : e.truncated[0] && options.refuse_truncated
                            ? fmt::format("longer than the model's maximum length ({} error refuses it)", Setting::Truncate)
                            : "";
    if (!error.empty()) {
      if (options.on_error == records::OnError::Fail) bad_input("{}: {}", q.record.where(), error);
      records::warn("{}: {} (skipped)", q.record.where(), error);
      failed.push_back({queries.size(), q.record, fmt::format("{}: {}", q.record.where(), error)});
      continue;
    }
    q.truncated = e.truncated[0];
    encodings.push_back(std::move(e.encodings[0]));
    queries.push_back(std::move(q));
  }
  return queries;
}

// Each query's record with its `results`: hits best first, each its corpus index, the corpus record's
// fields as written (a line's `text`, a CSV/TSV row's columns, a JSONL record's members) and its score.
// A skipped query keeps its row, in its place, with its error.
void write_results(records::RecordOutput& out, const std::vector<Query>& queries, const std::vector<FailedQuery>& failed,
                   const records::TableLayout* corpus, const HitNames& names) {
  records::ResultWriter& results = out.results();
  auto next_failed = failed.begin();
  for (std::size_t k = 0; k <= queries.size(); ++k) {
    for (; next_failed != failed.end() && next_failed->position == k; ++next_failed)
      results.failed(next_failed->record, next_failed->error);
    if (k == queries.size()) break;
    const Query& q = queries[k];
    results.begin(q.record, q.truncated).nested("results", [&](records::JsonLine& j) {
      j.begin_array();
      for (const Hit& hit : q.hits.sorted()) {
        j.begin_object().field(names.index, hit.index);
        records::write_input(j, hit.record, corpus);
        j.field(names.score, hit.score).end_object();
      }
      j.end_array();
    });
    results.end();
  }
  out.writer().flush();
}

}  // namespace

int search(const SearchOptions& search, Scorer& scorer, const tok::Tokenizer& tokenizer,
           records::PipelineOptions options) {
  std::vector<records::ReadFile> inputs = options.read_files;
  if (search.queries.texts.empty()) records::add_record_inputs(inputs, search.queries.paths);
  records::add_record_inputs(inputs, search.corpus.paths);
  records::refuse_output_over_inputs("-o", options.output.path, inputs);
  auto query_reader = records::open_reader(search.queries);
  auto corpus = records::open_reader(search.corpus);

  std::vector<tok::Encoding> query_encodings;
  std::vector<FailedQuery> failed;
  std::vector<Query> queries =
      read_queries(*query_reader, scorer, tokenizer, options, search.top_k, query_encodings, failed);
  std::vector<float> query_rows;
  std::vector<std::uint8_t> query_bits;
  TextVectors query_vectors;
  std::vector<std::vector<float>> query_colbert;
  if (scorer.colbert) {
    const std::vector<std::uint8_t> sides(query_encodings.size(), 1);
    scorer.colbert_encoder->vectors(query_encodings, sides, scorer.limits, query_colbert);
  } else if (scorer.embedder && !scorer.dense_only()) {
    query_vectors.embed(scorer, query_encodings, scorer.limits);
  } else if (scorer.embedder) {
    scorer.embedder->sentence_embeddings(query_encodings, scorer.limits, query_rows);
    quantize_rows(scorer, scorer.embedder->dimension(), query_rows, query_bits);
  }

  if (options.output.resume)
    usage_error("{}: a search writes every query's results after the whole corpus, so nothing is finished before "
                "the end", Setting::Resume);
  options.output.settings.clear();
  options.output.pairs = false;
  options.output.error_field = options.on_error == records::OnError::Skip;
  const HitNames names{options.output.field_prefix + "index", options.output.field_prefix + "score"};
  records::refuse_collisions(names.all(), corpus->table());
  SearchTask task(scorer, queries, query_rows, query_bits, query_vectors, query_colbert, names);
  records::RecordOutput out(options.output, query_reader->table(), task.result_fields());
  options.batching = records::Batching::Full;
  if (int status = records::run_records(*corpus, out, tokenizer, options, task); status != 0) return status;
  write_results(out, queries, failed, corpus->table(), names);
  return 0;
}

}  // namespace bertkit::cmd
