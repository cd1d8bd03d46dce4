// `bertkit embed`: sentence embeddings (or per-token vectors) of every input record.
#include "cli/app.h"
#include "cli/choice_flags.h"
#include "cli/calibration.h"
#include "cli/colbert_model.h"
#include "cli/embedding_flags.h"
#include "cli/embedding_model.h"
#include "cli/empty_values.h"
#include "cli/number_flags.h"
#include "records/record_writer.h"
#include "cli/switch_flags.h"
#include "cli/task_flags.h"
#include "cli/task_model.h"
#include "commands/embed.h"
#include "core/error.h"
#include "core/model/embedding_precision.h"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <algorithm>
#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace bertkit::cli {

namespace {

struct EmbedOptions {
  TaskFlags task;
  std::string pooling;
  std::optional<bool> normalize;
  std::optional<std::string> prefix, prompt;
  std::optional<std::int64_t> truncate_dim;
  std::string precision = "float32";
  std::string calibration;  // an .npy of float32 embeddings: the int8/uint8 ranges
  bool token_embeddings = false;
  std::string vectors;  // --vectors dense,sparse; empty: the model's default
  std::optional<std::size_t> sparse_top_k;
  bool sparse_tokens = false;
};

// Sparse and ColBERT vectors are written as JSON (ids and values, lists of vectors): a flag or format of
// dense rows does not apply to them.
void check_vector_flags(const EmbedOptions& o, const cmd::EmbedPlan& plan, records::ResultFormat format) {
  const auto& v = plan.vectors;
  auto has = [&](cmd::VectorKind kind) { return cmd::has_vector(v, kind); };
  if (!has(cmd::VectorKind::Sparse) && (o.sparse_top_k || o.sparse_tokens))
    usage_error("--sparse-top-k and --sparse-tokens apply to sparse vectors; this run writes none");
  if (v == std::vector{cmd::VectorKind::Dense}) return;
  const std::string others = has(cmd::VectorKind::Sparse) && has(cmd::VectorKind::Colbert) ? "sparse and ColBERT"
                             : has(cmd::VectorKind::Sparse)                                 ? "sparse"
                                                                                            : "ColBERT";
  if (format == records::ResultFormat::Npy || format == records::ResultFormat::F32)
    usage_error("--format {} holds one dense row per record; {} vectors are written as JSON: use --format jsonl, tsv or "
                "csv", format == records::ResultFormat::Npy ? "npy" : "f32", others);
  if (o.token_embeddings) usage_error("--token-embeddings gives the last hidden state, not {} vectors", others);
  if (o.precision != "float32" || !o.calibration.empty())
    usage_error("--precision quantises dense embeddings; {} vectors are written as float32", others);
  if (!has(cmd::VectorKind::Dense) && (!o.pooling.empty() || o.normalize || o.truncate_dim))
    usage_error("--pooling, --normalize and --truncate-dim shape dense embeddings; this run writes {} vectors only", others);
}

// --dry-run: the vectors each record gets, and how the sparse and ColBERT ones are made.
void add_vector_settings(Settings& s, const cmd::EmbedPlan& plan, const EmbeddingModel& model, const EmbedOptions& o) {
  std::vector<std::string> names;
  for (cmd::VectorKind kind : plan.vectors)
    names.push_back(fmt::format("{} (field {})", cmd::vector_kind_info(kind).name, cmd::vector_kind_info(kind).field));
  s.add("vectors", fmt::format("{}", fmt::join(names, ", ")));
  for (cmd::VectorKind kind : plan.vectors) {
    if (kind == cmd::VectorKind::Sparse)
      s.add("sparse", cmd::sparse_head_text(model.transformer->loaded) +
                          (o.sparse_top_k ? fmt::format("; the {} largest kept (--sparse-top-k)", *o.sparse_top_k) : ""));
    if (kind == cmd::VectorKind::Colbert) {
      const core::TensorView* w = model.transformer->weights->find(core::kColbertLinearWeight);
      s.add("colbert", fmt::format("colbert_linear.pt: every token after the first projected to {} values, each "
                                   "L2-normalised", w ? w->shape[0] : 0));
    }
  }
}

// What makes a sentence embedding out of the token vectors (pooling, normalising, truncating,
// quantising) does not apply to --token-embeddings, which are the last hidden state as it is.
void refuse_sentence_flags(const EmbedOptions& o) {
  std::vector<std::string> given;
  if (!o.pooling.empty()) given.push_back("--pooling");
  if (o.normalize) given.push_back(*o.normalize ? "--normalize" : "--no-normalize");
  if (o.truncate_dim) given.push_back("--truncate-dim");
  if (o.precision != "float32") given.push_back("--precision");
  if (!o.calibration.empty()) given.push_back("--calibration");
  if (given.empty()) return;
  usage_error("{} make{} sentence embeddings, not --token-embeddings (the last hidden state as it is)",
              fmt::join(given, ", "), given.size() == 1 ? "s" : "");
}

// A ColBERT model writes a list of vectors per record, as PyLate encodes them: what makes one vector of
// a text does not apply, nor do formats of one row per record.
int run_colbert(const EmbedOptions& o, TaskModel& model, records::ResultFormat format, core::Precision precision) {
  std::vector<std::string> given;
  if (!o.pooling.empty()) given.push_back("--pooling");
  if (o.normalize) given.push_back(*o.normalize ? "--normalize" : "--no-normalize");
  if (o.truncate_dim) given.push_back("--truncate-dim");
  if (o.prefix) given.push_back("--prefix");
  if (o.token_embeddings) given.push_back("--token-embeddings");
  if (!given.empty())
    usage_error("{} do{} not apply to a ColBERT model (its vectors are one per token, normalised; --prompt query "
                "embeds queries)", fmt::join(given, ", "), given.size() == 1 ? "es" : "");
  if (format == records::ResultFormat::Npy || format == records::ResultFormat::F32)
    usage_error("--format {} holds one vector per record; a ColBERT model gives a list per record: use --format jsonl, "
                "tsv or csv", format == records::ResultFormat::Npy ? "npy" : "f32");
  return run_colbert_embed(o.task, model, {o.prompt, precision, o.precision, o.calibration});
}

int run_embed(const EmbedOptions& o) {
  const records::ResultFormat format = result_format(o.task);
  if (o.token_embeddings) refuse_sentence_flags(o);
  const bool vectors = format == records::ResultFormat::Npy || format == records::ResultFormat::F32;
  if (o.token_embeddings && vectors)
    usage_error("--token-embeddings gives a list of vectors per input: use --format jsonl, tsv or csv");
  if (vectors && o.task.output == "-" && format == records::ResultFormat::Npy)
    usage_error("--format npy needs an output file (-o FILE): its header is completed after the last row");
  const core::Precision precision = precision_flag(o.precision);
  if (precision != core::Precision::Float32) {
    if (format == records::ResultFormat::F32) usage_error("--format f32 holds float32: use --format npy with --precision {}", o.precision);
    // Integer rows have no NaN to hold the place of a skipped record.
    if (vectors && o.task.on_error == "skip") usage_error("--on-error skip needs float32 rows in --format npy: drop --precision");
  }

  cmd::EmbedOptions eo;
  if (!o.pooling.empty()) eo.pooling = cli::parse_pooling_mode(o.pooling);
  eo.normalize = o.normalize;
  eo.prefix = o.prefix;
  eo.prompt = o.prompt;
  eo.truncate_dim = o.truncate_dim;
  if (!o.vectors.empty()) eo.vectors = cmd::parse_vector_kinds(o.vectors, "--vectors");

  EmbeddingModel model = load_embedding_model(o.task);
  if (model.table && o.token_embeddings)
    usage_error("--token-embeddings writes a transformer's last hidden state; {} is a static embedding model, which "
                "has none",
                o.task.model);
  for (cmd::VectorKind kind : eo.vectors) model.require_offered(kind, "--vectors");
  if (model.transformer && is_colbert(*model.transformer)) return run_colbert(o, *model.transformer, format, precision);
  cmd::EmbedPlan plan = model.plan(eo);
  check_vector_flags(o, plan, format);
  Embedders embedders = model.embedders(plan);
  cmd::SentenceEmbedder& embedder = *embedders.sentence;
  records::PipelineOptions options = model.pipeline_options(o.task);
  std::optional<core::Ranges> calibration = calibration_ranges(o.calibration, precision, embedder.dimension());
  if (!o.calibration.empty()) options.read_files.push_back({o.calibration, "the --calibration file"});
  options.output.vector_type = precision == core::Precision::Float32 ? records::VectorType::F32
                               : core::is_signed(precision)          ? records::VectorType::I8
                                                                     : records::VectorType::U8;

  if (o.task.dry_run) {
    Settings s = model.settings(o.task);
    if (o.token_embeddings) {
      s.add("output vectors", fmt::format("token_embeddings: the last hidden state, {} values per token",
                                          embedders.transformer->hidden_size()));
    } else if (plan.vectors != std::vector{cmd::VectorKind::Dense}) {
      add_vector_settings(s, plan, model, o);
    }
    if (!o.token_embeddings && cmd::has_vector(plan.vectors, cmd::VectorKind::Dense)) {
      s.add("pooling", plan.pooling_text);
      s.add("normalization", plan.normalize_text);
      s.add("precision", precision == core::Precision::Float32 ? std::string("float32")
                         : calibration ? fmt::format("{} (ranges of {})", o.precision, o.calibration)
                         : precision == core::Precision::Int8 || precision == core::Precision::Uint8
                             ? fmt::format("{} (ranges of all the embeddings: every record is kept until the end)", o.precision)
                             : o.precision);
      s.add("dimension", plan.truncate_dim ? fmt::format("{} (the first of each embedding, {})", embedder.dimension(),
                                                           plan.truncate_from)
                                           : fmt::format("{}", embedder.dimension()));
    }
    s.add("prompt", plan.prompt_text);
    s.add("lower-case text", plan.lower_case ? "yes (do_lower_case of sentence_bert_config.json)" : "no");
    records::RecordWriter out("-");
    out.write(s.text());
    return 0;
  }

  cmd::EmbedTask task(embedder, plan, model.tokenizer(), options.limits, embedders.transformer, o.token_embeddings);
  task.quantize(precision, std::move(calibration));
  task.sparse_writing({o.sparse_top_k, o.sparse_tokens});
  return run_task(o.task, options, model.tokenizer(), task);
}

}  // namespace

Action add_embed(CLI::App& sub, const GlobalOptions&) {
  auto o = std::make_shared<EmbedOptions>();
  add_task_flags(sub, o->task, {.texts_help = "Texts to embed (default: one per line from -i files or stdin)",
                                .formats = {"jsonl", "tsv", "csv", "npy", "f32"}});
  sub.add_option("--pooling", o->pooling, "cls, mean or max (default: the checkpoint's, else mean)");
  add_switch_flags(sub, "--normalize", "--no-normalize", o->normalize, "L2-normalize the embeddings",
                   "Do not normalize (override the checkpoint)");
  sub.add_option_function<std::string>("--prefix", [o](const std::string& p) { o->prefix = p; },
                                       "Text put before every input (e.g. \"query: \"; \"\": none, not the checkpoint's default prompt)")
      ->check(may_be_empty());
  sub.add_option_function<std::string>("--prompt", [o](const std::string& p) { o->prompt = p; },
                                       "A prompt name of config_sentence_transformers.json");
  // The upper bound is the model's dimension, checked once it is loaded.
  sub.add_option_function<std::int64_t>("--truncate-dim", [o](std::int64_t n) { o->truncate_dim = n; },
                                        "Keep the first N dimensions (Matryoshka; default: the model's truncate_dim)")
      ->check(whole_number(0, 1 << 24));
  sub.add_option("--precision", o->precision,
                 "float32, int8, uint8, binary or ubinary (sentence-transformers' quantize_embeddings)")
      ->capture_default_str();
  sub.add_option("--calibration", o->calibration,
                 "An .npy of float32 embeddings [n, dim] whose ranges int8/uint8 use (default: the input's)");
  sub.add_flag("--token-embeddings", o->token_embeddings,
               "Per-token vectors (last hidden state, special tokens included) instead of one per input");
  sub.add_option("--vectors", o->vectors,
                 "Which vectors to write, comma-separated: dense, sparse (BGE-M3's heads; default: the model's one)");
  sub.add_option_function<std::size_t>("--sparse-top-k", [o](std::size_t n) { o->sparse_top_k = n; },
                                       "Keep each sparse vector's N largest values (still in ascending id order)")
      ->check(whole_number(1, 1 << 24));
  sub.add_flag("--sparse-tokens", o->sparse_tokens,
               "Also write each sparse vector's entries as vocabulary tokens (sparse_tokens)");
  return [o] { return run_embed(*o); };
}

}  // namespace bertkit::cli
