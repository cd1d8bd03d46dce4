// `bertkit bench`: the encoder timed on a model or a random-weight model of a named shape, the tokenizer's
// MB/s (--tokenizer), real uneven text fed two ways (--corpus), or the shape's model saved (--save).
#include "cli/app.h"
#include "cli/bench_flags.h"
#include "records/log.h"
#include "records/record_writer.h"
#include "cli/number_flags.h"
#include "cli/task_model.h"
#include "cli/tokenizer_flags.h"
#include "commands/bench_corpus.h"
#include "commands/bench_encoder.h"
#include "commands/bench_model.h"
#include "commands/bench_tokenizer.h"
#include "core/checkpoint/reduce_weights.h"
#include "core/bench/attention_timing.h"
#include "core/bench/encoder_timing.h"
#include "core/error.h"
#include "core/ops/cpu_features.h"

#include <fmt/format.h>
#include <fmt/ranges.h>
#include <nlohmann/json.hpp>
#include <omp.h>

#include <algorithm>
#include <functional>
#include <memory>
#include <optional>

namespace bertkit::cli {

namespace {

struct BenchOptions {
  std::string model;
  std::string shape;
  std::string save;
  std::string workloads = "1x128,8x128,32x128,1x384";
  std::string threads;  // empty: 1 and all cores
  std::string dtype;  // empty: the type the model file stores (f32 for --shape), as every command
  std::string format = "table";
  bool tokenizer = false;
  std::string input;
  std::size_t mb = 16;
  std::string corpus;
  double min_time = 3.0;
  int runs = 3;
  bool profile = false;
  std::string attention;  // lengths: time the attention op alone
  std::optional<std::int64_t> window;
  std::optional<int> heads;
  std::optional<std::int64_t> head_dim;
};

// Every row is printed (and flushed) as soon as it is measured.
class BenchPrinter {
 public:
  explicit BenchPrinter(bool jsonl) : jsonl_(jsonl), out_("-") {}

  void header(const std::string& line) {
    if (!jsonl_) emit(line);
  }
  void row(const nlohmann::ordered_json& record, const std::string& table_line) {
    emit(jsonl_ ? record.dump() : table_line);
  }

 private:
  void emit(const std::string& line) {
    out_.write(line + "\n");
    out_.flush();
  }
  bool jsonl_;
  records::RecordWriter out_;
};

// The model timed: -m as every model command loads it, or --shape with random weights and the built-in
// vocabulary (its maximum length is the 512 positions).
TaskModel bench_model(const BenchOptions& o) {
  if (o.model.empty()) {
    TaskModel m;
    const auto& shape = core::find_model_shape(o.shape);
    m.loaded.name = o.shape;
    m.loaded.config = core::config_of(shape);
    m.dtype = o.dtype.empty() ? "f32" : o.dtype;
    m.weights = std::make_shared<const core::Weights>(
        core::with_store_type(cmd::random_model_weights(shape), core::parse_store_type(m.dtype)));
    m.tokenizer = build_tokenizer(TokenizerFlags{});
    m.max_length = m.loaded.config.usable_positions();
    m.max_length_from = "max_position_embeddings of config.json";
    return m;
  }
  TaskFlags flags;
  flags.model = o.model;
  flags.dtype = o.dtype;
  return load_task_model(flags);
}

std::vector<int> thread_counts(const BenchOptions& o) {
  if (!o.threads.empty()) return parse_thread_counts(o.threads);
  const int all = omp_get_max_threads();
  return all > 1 ? std::vector<int>{1, all} : std::vector<int>{1};
}

// --profile: each op's milliseconds and calls per batch, and its share of the batch's mean time; what no op
// timed (embeddings, the gaps between ops) is "other".
void add_op_profile(const core::EncoderTiming& t, nlohmann::ordered_json& j, std::string& table) {
  double timed = 0;
  auto ops = nlohmann::ordered_json::array();
  auto add = [&](const std::string& name, double seconds, std::int64_t calls) {
    ops.push_back({{"op", name}, {"ms", 1e3 * seconds}, {"calls", calls}, {"share", seconds / t.mean_seconds}});
    table += fmt::format("\n{:>18} {:<36} {:>9.3f} ms {:>6.1f}% {:>5} calls", "", name, 1e3 * seconds,
                         100 * seconds / t.mean_seconds, calls);
  };
  for (const core::OpTime& op : t.ops) {
    add(op.name, op.seconds, op.calls);
    timed += op.seconds;
  }
  add("other", std::max(0.0, t.mean_seconds - timed), 0);
  j["mean_seconds"] = t.mean_seconds;
  j["ops"] = std::move(ops);
}

void run_encoder_rows(const BenchOptions& o, const TaskModel& model, BenchPrinter& print) {
  const auto& c = model.loaded.config;
  const auto workloads = parse_workloads(o.workloads, static_cast<std::int64_t>(c.usable_positions()));
  const auto threads = thread_counts(o);
  print.header(fmt::format("{}{}: {} layers, hidden {}, feed-forward {}; dtype {}; CPU path {}", model.loaded.name,
                           o.model.empty() ? " (random weights)" : "", c.num_layers, c.hidden_size,
                           c.intermediate_size, model.dtype, core::cpu_path_name(core::cpu_selection().path)));
  print.header(fmt::format("{:>7} {:>5} {:>9} {:>5} {:>10} {:>10} {:>9} {:>9} {:>8} {:>5}", "threads", "used", "workload",
                           "runs", "seq/s", "tokens/s", "GFLOP/s", "peak", "of peak", "cpu"));
  cmd::bench_encoder(c, model.weights, workloads, threads, {o.runs, o.min_time, o.profile}, [&](const cmd::EncoderRow& r) {
    const auto& t = r.timing;
    const double share = t.gflops / r.peak_gflops;
    nlohmann::ordered_json j = {
        {"mode", "encoder"},          {"model", model.loaded.name},
        {"dtype", model.dtype},       {"layers", c.num_layers},
        {"hidden", c.hidden_size},    {"intermediate", c.intermediate_size},
        {"threads", r.threads},       {"threads_used", t.threads_used},
        {"batch", r.workload.lengths.size()},
        {"length", *std::max_element(r.workload.lengths.begin(), r.workload.lengths.end())}, {"runs", t.runs},
        {"median_seconds", t.median_seconds},
        {"sequences_per_second", t.sequences_per_second},
        {"tokens_per_second", t.tokens_per_second},
        {"gflops", t.gflops},         {"peak_gflops", r.peak_gflops},
        {"peak_share", share},        {"cpu_share", t.cpu_share}};
    if (std::adjacent_find(r.workload.lengths.begin(), r.workload.lengths.end(), std::not_equal_to<>()) !=
        r.workload.lengths.end())
      j["lengths"] = r.workload.lengths;
    std::string table = fmt::format("{:>7} {:>5.2f} {:>9} {:>5} {:>10.2f} {:>10.0f} {:>9.1f} {:>9.1f} {:>7.1f}% {:>4.0f}%",
                                    r.threads, t.threads_used, r.workload.name, t.runs, t.sequences_per_second,
                                    t.tokens_per_second, t.gflops, r.peak_gflops, 100 * share, 100 * t.cpu_share);
    if (o.profile) add_op_profile(t, j, table);
    print.row(j, table);
  });
}

void run_tokenizer_rows(const BenchOptions& o, BenchPrinter& print) {
  TokenizerFlags flags;
  flags.model = o.model;
  const auto tokenizer = build_tokenizer(flags);
  const auto lines = cmd::tokenizer_bench_lines(
      o.input.empty() ? std::nullopt : std::optional<std::string>(o.input), o.mb << 20);
  const std::string text = o.input.empty() ? "built-in English sample" : o.input;
  const std::string vocab = o.model.empty() ? "built-in bert-base-uncased" : o.model;
  print.header(fmt::format("tokenizer {}, text: {} (offsets in code points)", vocab, text));
  print.header(fmt::format("{:>7} {:>9} {:>9} {:>5} {:>9} {:>12} {:>5}", "threads", "MB", "lines", "runs", "MB/s",
                           "tokens/s", "cpu"));
  for (int n : thread_counts(o)) {
    auto t = cmd::time_tokenizer(*tokenizer, lines, n, o.runs);
    const double mb_per_s = static_cast<double>(t.bytes) / t.median_seconds / 1e6;
    const double tokens_per_s = static_cast<double>(t.tokens) / t.median_seconds;
    nlohmann::ordered_json j = {{"mode", "tokenizer"},  {"tokenizer", vocab},         {"input", text},
                                {"threads", n},         {"bytes", t.bytes},           {"lines", t.lines},
                                {"tokens", t.tokens},   {"runs", t.runs},             {"median_seconds", t.median_seconds},
                                {"mb_per_second", mb_per_s}, {"tokens_per_second", tokens_per_s},
                                {"cpu_share", t.cpu_share}};
    print.row(j, fmt::format("{:>7} {:>9.1f} {:>9} {:>5} {:>9.1f} {:>12.0f} {:>4.0f}%", n,
                             static_cast<double>(t.bytes) / 1e6, t.lines, t.runs, mb_per_s, tokens_per_s,
                             100 * t.cpu_share));
  }
}

void run_corpus_rows(const BenchOptions& o, const TaskModel& model, BenchPrinter& print) {
  TaskFlags defaults;  // the model commands' batching
  defaults.model = o.model;
  const records::PipelineOptions pipeline = pipeline_options(defaults, model);
  const auto corpus = cmd::tokenize_corpus(*model.tokenizer, pipeline.tokenize, o.corpus);
  constexpr std::size_t kSentenceTransformersBatch = 32;  // SentenceTransformer.encode's default batch_size
  print.header(fmt::format("{} on {} ({} lines, at most {} tokens each); dtype {}", model.loaded.name, o.corpus,
                           corpus.lines.size(), model.max_length, model.dtype));
  print.header(fmt::format("{:>7} {:<22} {:>8} {:>9} {:>8} {:>8} {:>10} {:>8} {:>5}", "threads", "feeding", "batches",
                           "tokens", "padding", "seconds", "tokens/s", "seq/s", "cpu"));
  for (int n : thread_counts(o)) {
    omp_set_num_threads(n);
    core::Encoder encoder(model.loaded.config, model.weights);
    for (bool packed : {true, false}) {
      auto t = packed ? cmd::time_packed_feeding(encoder, corpus, pipeline.batch_size, pipeline.limits, n)
                      : cmd::time_padded_feeding(encoder, corpus, kSentenceTransformersBatch,
                                                 model.loaded.config.pad_token_id, n);
      const std::string feeding = packed ? "bertkit" : "sentence-transformers";
      const double tokens_per_s = static_cast<double>(t.tokens) / t.seconds;
      const double seq_per_s = static_cast<double>(t.sequences) / t.seconds;
      nlohmann::ordered_json j = {{"mode", "corpus"},        {"model", model.loaded.name},
                                  {"dtype", model.dtype},    {"corpus", o.corpus},
                                  {"feeding", feeding},      {"threads", n},
                                  {"sequences", t.sequences}, {"batches", t.batches},
                                  {"tokens", t.tokens},      {"computed_tokens", t.computed},
                                  {"padding_fraction", t.padding_fraction()},
                                  {"seconds", t.seconds},    {"tokens_per_second", tokens_per_s},
                                  {"sequences_per_second", seq_per_s}, {"cpu_share", t.cpu_share}};
      print.row(j, fmt::format("{:>7} {:<22} {:>8} {:>9} {:>7.1f}% {:>8.2f} {:>10.0f} {:>8.1f} {:>4.0f}%", n, feeding,
                               t.batches, t.tokens, 100 * t.padding_fraction(), t.seconds, tokens_per_s, seq_per_s,
                               100 * t.cpu_share));
    }
  }
}

void run_attention_rows(const BenchOptions& o, BenchPrinter& print) {
  const auto lengths = parse_lengths(o.attention);
  core::AttentionShape shape;
  shape.heads = o.heads.value_or(shape.heads);
  shape.head_dim = o.head_dim.value_or(shape.head_dim);
  shape.window = o.window.value_or(-1);
  shape.products = o.dtype == "bf16" ? core::AttentionProducts::BF16 : core::AttentionProducts::F32;
  const std::string window = o.window ? fmt::format("{} keys each side", *o.window) : std::string("none");
  print.header(fmt::format("self-attention alone, one sequence: {} heads of {}, window {}, {} products; CPU path {}",
                           shape.heads, shape.head_dim, window,
                           shape.products == core::AttentionProducts::BF16 ? "bf16" : "f32",
                           core::cpu_path_name(core::cpu_selection().path)));
  print.header(fmt::format("{:>7} {:>7} {:>5} {:>10} {:>10} {:>11} {:>10} {:>5}", "threads", "length", "runs", "ms",
                           "input MiB", "working MiB", "peak MiB", "cpu"));
  for (int n : thread_counts(o)) {
    omp_set_num_threads(n);
    for (std::int64_t length : lengths) {
      const auto t = core::time_attention(shape, length, o.runs, o.min_time, n);
      nlohmann::ordered_json j = {{"mode", "attention"},        {"heads", shape.heads},
                                  {"head_dim", shape.head_dim}, {"window", o.window ? nlohmann::ordered_json(*o.window) : nullptr},
                                  {"dtype", o.dtype},           {"threads", n},
                                  {"length", length},           {"runs", t.runs},
                                  {"median_seconds", t.median_seconds}, {"input_mib", t.input_mib},
                                  {"working_mib", t.working_mib}, {"peak_rss_mib", t.peak_rss_mib},
                                  {"cpu_share", t.cpu_share}};
      print.row(j, fmt::format("{:>7} {:>7} {:>5} {:>10.2f} {:>10.1f} {:>11.1f} {:>10.1f} {:>4.0f}%", n, length, t.runs,
                               1e3 * t.median_seconds, t.input_mib, t.working_mib, t.peak_rss_mib, 100 * t.cpu_share));
    }
  }
}

// --attention times the op alone: the model, tokenizer and workload flags do not apply to it, and its own
// flags apply to nothing else.
void check_attention_flags(const BenchOptions& o) {
  if (o.attention.empty()) {
    if (o.window || o.heads || o.head_dim) usage_error("--window, --heads and --head-dim are for --attention");
    return;
  }
  if (!o.model.empty() || !o.shape.empty() || o.tokenizer || !o.corpus.empty() || !o.save.empty() || !o.input.empty())
    usage_error("--attention times the attention op alone: it takes no -m, --shape, --tokenizer, --corpus, --save or -i");
  if (o.dtype == "int8") usage_error("--attention: --dtype is f32 or bf16 (the attention products' type)");
}

int run_bench(const BenchOptions& o) {
  check_attention_flags(o);
  if (o.profile && (!o.attention.empty() || o.tokenizer || !o.corpus.empty() || !o.save.empty()))
    usage_error("--profile times the ops of the encoder rows: not with --attention, --tokenizer, --corpus or --save");
  if (!o.model.empty() && !o.shape.empty()) usage_error("give -m MODEL or --shape NAME, not both");
  if (!o.input.empty() && !o.tokenizer) usage_error("-i is the text of --tokenizer");
  if (o.tokenizer && (!o.shape.empty() || !o.save.empty() || !o.corpus.empty()))
    usage_error("--tokenizer takes -m (its tokenizer) and -i, not --shape, --save or --corpus");
  if (!o.save.empty()) {
    if (o.shape.empty()) usage_error("--save writes a random-weight model: give --shape NAME");
    const auto& shape = core::find_model_shape(o.shape);
    const auto written = cmd::save_model_folder(shape, cmd::random_model_weights(shape), o.save);
    if (!records::quiet()) fmt::print(stderr, "bertkit: wrote {} ({})\n", o.save, fmt::join(written, ", "));
    return 0;
  }
  BenchPrinter print(o.format == "jsonl");
  if (!o.attention.empty()) {
    thread_counts(o);  // a bad list is a usage error before anything is printed
    run_attention_rows(o, print);
    return 0;
  }
  if (o.tokenizer) {
    run_tokenizer_rows(o, print);
    return 0;
  }
  if (o.model.empty() && o.shape.empty()) usage_error("give -m MODEL or --shape NAME (or --tokenizer)");
  const auto threads = thread_counts(o);  // bad lists are usage errors before anything is loaded
  if (o.corpus.empty()) parse_workloads(o.workloads);
  TaskModel model = bench_model(o);
  if (!o.corpus.empty()) run_corpus_rows(o, model, print);
  else run_encoder_rows(o, model, print);
  return 0;
}

}  // namespace

Action add_bench(CLI::App& sub, const GlobalOptions& global) {
  auto o = std::make_shared<BenchOptions>();
  sub.add_option("-m,--model", o->model, "Model to time (folder, converted file or Hugging Face id)");
  sub.add_option("--shape", o->shape,
                 "Time a random-weight model: bert-base, bert-large, minilm-l6, minilm-l12, mpnet-base, modernbert-base, modernbert-large, nomic-embed-text or deberta-v3-base");
  sub.add_option("--save", o->save, "Write the --shape model as a Hugging Face folder DIR and exit");
  sub.add_option("--workloads", o->workloads, "BATCHxLENGTH list of synthetic batches");
  sub.add_option("--threads", o->threads, "Thread counts to time, e.g. 1,2 (default: 1 and all cores)");
  sub.add_option("--dtype", o->dtype,
                 "Compute type: f32, bf16 or int8 (a model of another type is converted at load); default: the type "
                 "the model file stores, as every command (f32 for --shape)")
      ->check(CLI::IsMember({"f32", "bf16", "int8"}));
  sub.add_option("--format", o->format, "table or jsonl (one JSON record per row)")
      ->check(CLI::IsMember({"table", "jsonl"}));
  sub.add_flag("--tokenizer", o->tokenizer, "Time the tokenizer instead (MB/s of text)");
  sub.add_option("-i,--input", o->input, "Text file for --tokenizer (default: a built-in English sample)");
  sub.add_option("--mb", o->mb, "Repeat the --tokenizer text to at least this many MB")->check(whole_number(1, 4096));
  sub.add_option("--corpus", o->corpus, "Time real text: every line of FILE, fed as bertkit and as sentence-transformers feed it");
  sub.add_option("--min-time", o->min_time, "Seconds each encoder measurement runs at least")
      ->check(decimal_number(0, 3600));
  sub.add_option("--runs", o->runs, "Runs each measurement makes at least")->check(whole_number(1, 1000000));
  sub.add_flag("--profile", o->profile, "Encoder rows: the time of each op per batch (matmuls by shape and type)");
  sub.add_option("--attention", o->attention,
                 "Time the self-attention op alone on one sequence of each LENGTH, e.g. 2048,8192, with its memory");
  sub.add_option("--window", o->window, "--attention: a sliding window of W keys each side (ModernBERT's local layers: 64)")
      ->check(whole_number(0, 1 << 20));
  sub.add_option("--heads", o->heads, "--attention: attention heads (default 12)")->check(whole_number(1, 1024));
  sub.add_option("--head-dim", o->head_dim, "--attention: floats per head (default 64)")->check(whole_number(1, 4096));
  return [o, &global, &sub] {
    records::set_quiet(global.quiet);
    if (!o->attention.empty() && sub.count("--workloads") > 0)
      usage_error("--workloads is not for --attention (its lengths are the workload)");
    return run_bench(*o);
  };
}

}  // namespace bertkit::cli
