// `bertkit embed`: sentence embeddings (or per-token vectors) of every input record.
#include "cli/app.h"
#include "records/vector_writers.h"
#include "records/record_writer.h"
#include "records/record_pipeline.h"
#include "records/result_writer.h"
#include "cli/task_flags.h"
#include "cli/task_model.h"
#include "commands/embed.h"
#include "core/error.h"

#include <fmt/format.h>

#include <memory>
#include <optional>

namespace bertkit::cli {

namespace {

struct EmbedOptions {
  TaskFlags task;
  std::string pooling;
  std::optional<bool> normalize;
  std::optional<std::string> prefix, prompt;
  bool token_embeddings = false;
};

class EmbedTask : public records::BatchTask {
 public:
  EmbedTask(cmd::Embedder& embedder, const cmd::EmbedPlan& plan, const tok::Tokenizer& tokenizer,
            const core::BatchLimits& limits, bool token_embeddings)
      : embedder_(embedder), plan_(plan), tokenizer_(tokenizer), limits_(limits), token_embeddings_(token_embeddings) {}

  // Exactly one of these receives the results.
  std::unique_ptr<records::ResultWriter> results;
  std::unique_ptr<records::NpyWriter> npy;
  std::unique_ptr<records::RawF32Writer> raw;

  records::TextInput model_input(const records::Record& record, std::string& text, std::string& pair) override {
    text = cmd::model_text(plan_, record.text);
    if (!record.has_pair) return {text, std::nullopt};
    pair = cmd::model_text(plan_, record.text_pair);
    return {text, std::optional<std::string_view>(pair)};
  }

  void compute(const records::Batch& batch) override {
    if (token_embeddings_) embedder_.token_embeddings(batch.encodings, limits_, states_);
    else embedder_.sentence_embeddings(batch.encodings, limits_, rows_);
  }

  void write(const records::Batch& batch, std::size_t i) override {
    if (token_embeddings_) return write_tokens(batch, i);
    const auto dim = static_cast<std::size_t>(embedder_.dimension());
    std::span<const float> row(rows_.data() + i * dim, dim);
    if (npy) return npy->append(row);
    if (raw) return raw->append(row);
    results->begin(batch.records[i], batch.truncated[i]).field("embedding", row).end();
  }

  void end_batch() override {
    if (npy) npy->flush();
  }

 private:
  void write_tokens(const records::Batch& batch, std::size_t i) {
    const tok::Encoding& e = batch.encodings[i];
    const auto hidden = static_cast<std::size_t>(embedder_.hidden_size());
    results->begin(batch.records[i], batch.truncated[i]);
    results->nested("tokens", [&](records::JsonLine& j) {
      j.begin_array();
      for (auto id : e.ids) j.value(tokenizer_.token(id));
      j.end_array();
    });
    results->nested("token_embeddings", [&](records::JsonLine& j) {
      j.begin_array();
      for (std::size_t t = 0; t < e.size(); ++t) j.value(std::span<const float>(states_[i].data() + t * hidden, hidden));
      j.end_array();
    });
    results->end();
  }

  cmd::Embedder& embedder_;
  const cmd::EmbedPlan& plan_;
  const tok::Tokenizer& tokenizer_;
  core::BatchLimits limits_;
  bool token_embeddings_;
  std::vector<float> rows_;
  std::vector<std::vector<float>> states_;
};

int run_embed(const EmbedOptions& o) {
  const records::ResultFormat format = records::parse_result_format(o.task.format, {"jsonl", "tsv", "csv", "npy", "f32"});
  const bool vectors = format == records::ResultFormat::Npy || format == records::ResultFormat::F32;
  if (o.token_embeddings && vectors)
    usage_error("--token-embeddings gives a list of vectors per input: use --format jsonl, tsv or csv");
  if (vectors && o.task.output == "-" && format == records::ResultFormat::Npy)
    usage_error("--format npy needs an output file (-o FILE): its header is completed after the last row");

  cmd::EmbedOptions eo;
  if (!o.pooling.empty()) eo.pooling = cmd::parse_pooling_mode(o.pooling);
  eo.normalize = o.normalize;
  eo.prefix = o.prefix;
  eo.prompt = o.prompt;

  TaskModel model = load_task_model(o.task);
  cmd::EmbedPlan plan = cmd::plan_embedding(model.loaded, eo);
  cmd::Embedder embedder(model.loaded.config, model.weights, plan);
  records::PipelineOptions options = pipeline_options(o.task, model);

  if (o.task.dry_run) {
    Settings s = common_settings(o.task, model);
    if (o.token_embeddings) {
      s.add("output vectors", fmt::format("token_embeddings: the last hidden state, {} values per token", embedder.hidden_size()));
    } else {
      s.add("pooling", plan.pooling_text);
      s.add("normalization", plan.normalize_text);
      s.add("dimension", fmt::format("{}", embedder.dimension()));
    }
    s.add("prompt", plan.prompt_text);
    s.add("lower-case text", plan.lower_case ? "yes (do_lower_case of sentence_bert_config.json)" : "no");
    records::RecordWriter out("-");
    out.write(s.text());
    return 0;
  }

  auto reader = open_task_input(o.task);
  records::RecordWriter out(o.task.output);
  EmbedTask task(embedder, plan, *model.tokenizer, options.limits, o.token_embeddings);
  const auto dim = static_cast<std::size_t>(embedder.dimension());
  if (format == records::ResultFormat::Npy) {
    task.npy = std::make_unique<records::NpyWriter>(out, dim);
  } else if (format == records::ResultFormat::F32) {
    task.raw = std::make_unique<records::RawF32Writer>(out, dim);
  } else {
    const bool pairs = o.task.pairs || !o.task.pair_column.empty() || !o.task.pair_field.empty();
    std::vector<std::string> columns = o.token_embeddings ? std::vector<std::string>{"tokens", "token_embeddings"}
                                                          : std::vector<std::string>{"embedding"};
    task.results = std::make_unique<records::ResultWriter>(out, format, reader->table(), pairs, columns);
  }
  return records::run_pipeline(*reader, *model.tokenizer, options, task, out);
}

}  // namespace

Action add_embed(CLI::App& sub, const GlobalOptions&) {
  auto o = std::make_shared<EmbedOptions>();
  add_task_flags(sub, o->task, {.texts_help = "Texts to embed (default: one per line from -i files or stdin)",
                                .pairs = true,
                                .formats = {"jsonl", "tsv", "csv", "npy", "f32"}});
  sub.add_option("--pooling", o->pooling, "cls, mean or max (default: the checkpoint's, else mean)");
  sub.add_flag_callback("--normalize", [o] { o->normalize = true; }, "L2-normalize the embeddings");
  sub.add_flag_callback("--no-normalize", [o] { o->normalize = false; }, "Do not normalize (override the checkpoint)");
  sub.add_option_function<std::string>("--prefix", [o](const std::string& p) { o->prefix = p; },
                                       "Text put before every input (e.g. \"query: \")");
  sub.add_option_function<std::string>("--prompt", [o](const std::string& p) { o->prompt = p; },
                                       "A prompt name of config_sentence_transformers.json");
  sub.add_flag("--token-embeddings", o->token_embeddings,
               "Per-token vectors (last hidden state, special tokens included) instead of one per input");
  return [o] { return run_embed(*o); };
}

}  // namespace bertkit::cli
