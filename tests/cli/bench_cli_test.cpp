// `bertkit bench` end to end: well-formed records whose figures agree with each other and with the
// documented formula, a saved model the other commands load, usage errors. No timing thresholds: the
// figures themselves are benchmarks.
#include "support.h"

#include "commands/bench_model.h"

#include <doctest/doctest.h>

#include <algorithm>
#include <numeric>

namespace {

// The minilm-l6 shape as bertkit-bench(1) documents it.
constexpr double kLayers = 6, kHidden = 384, kIntermediate = 1536;

double minilm_flops(double s) {
  const double L = kLayers, h = kHidden, i = kIntermediate;
  return 2 * L * (4 * s * h * h + 2 * s * h * i) + 4 * L * s * s * h;
}

nlohmann::json only_record(const bktest::RunResult& r) {
  auto records = bktest::json_lines(r.out);
  REQUIRE(records.size() == 1);
  return records[0];
}

// One 1x16 batch of `shape` on one thread: its record names the shape's sizes, and its GFLOP/s are its
// sequences per second times `flops` (one sequence's).
void check_shape_flops(const char* shape, int layers, int hidden, int intermediate, double flops) {
  auto r = bktest::run_bertkit({"bench", "--shape", shape, "--workloads", "1x16", "--threads", "1", "--format",
                                "jsonl", "--min-time", "0", "--runs", "1"});
  REQUIRE_MESSAGE(r.exit_code == 0, r.err);
  auto j = only_record(r);
  CHECK(j["model"] == shape);
  CHECK(j["layers"] == layers);
  CHECK(j["hidden"] == hidden);
  CHECK(j["intermediate"] == intermediate);
  CHECK(j["gflops"].get<double>() == doctest::Approx(j["sequences_per_second"].get<double>() * flops / 1e9).epsilon(1e-9));
}

}  // namespace

TEST_CASE("bench: a mixed-length workload is one batch whose work is the sum of its sequences'") {
  auto r = bktest::run_bertkit({"bench", "--shape", "minilm-l6", "--workloads", "8+16+3", "--threads", "1", "--format",
                                "jsonl", "--min-time", "0", "--runs", "1"});
  REQUIRE_MESSAGE(r.exit_code == 0, r.err);
  auto j = only_record(r);
  CHECK(j["batch"] == 3);
  CHECK(j["length"] == 16);
  CHECK(j["lengths"] == nlohmann::json::array({8, 16, 3}));
  const double seq = j["sequences_per_second"];
  CHECK(j["tokens_per_second"].get<double>() == doctest::Approx(seq / 3 * 27).epsilon(1e-9));
  CHECK(j["gflops"].get<double>() ==
        doctest::Approx(seq / 3 * (minilm_flops(8) + minilm_flops(16) + minilm_flops(3)) / 1e9).epsilon(1e-9));
  auto bad = bktest::run_bertkit({"bench", "--shape", "minilm-l6", "--workloads", "8+0+3"});
  CHECK(bad.exit_code == 2);
  CHECK(bad.err == "bertkit: error: --workloads: \"8+0+3\" is not BATCHxLENGTH (e.g. 8x128) or LENGTH+LENGTH+...\n");
}

TEST_CASE("bench: the nomic-embed-text shape times NomicBERT, its SwiGLU counted as three matmuls (issue 33)") {
  const double s = 16, h = 768, i = 3072;
  check_shape_flops("nomic-embed-text", 12, 768, 3072, 12 * (2 * (4 * s * h * h + 3 * s * h * i) + 4 * h * s * s));
}

TEST_CASE("bench: the deberta-v3-base shape times DeBERTa-v2, its c2p and p2c products counted (issue 32)") {
  // 16 tokens read the relative rows of δ −15..15 (each its own bucket of the 256): 31 rows, times
  // queries and keys, 2·s·31·h flops each.
  const double s = 16, h = 768, i = 3072, rows = 31;
  check_shape_flops("deberta-v3-base", 12, 768, 3072,
                    12 * (2 * (4 * s * h * h + 2 * s * h * i) + 4 * h * s * s + 2 * (2 * s * rows * h)));
}

TEST_CASE("bench: an encoder record's figures are positive and agree with the formula") {
  auto r = bktest::run_bertkit(
      {"bench", "--shape", "minilm-l6", "--workloads", "1x8", "--threads", "1", "--format", "jsonl", "--min-time", "0.2"});
  REQUIRE_MESSAGE(r.exit_code == 0, r.err);
  auto j = only_record(r);
  CHECK(j["mode"] == "encoder");
  CHECK(j["model"] == "minilm-l6");
  CHECK(j["dtype"] == "f32");
  CHECK(j["layers"] == 6);
  CHECK(j["hidden"] == 384);
  CHECK(j["intermediate"] == 1536);
  CHECK(j["threads"] == 1);
  CHECK(j["threads_used"] == 1.0);  // one thread allowed: nothing to choose
  CHECK(j["batch"] == 1);
  CHECK(j["length"] == 8);
  CHECK(j["runs"].get<int>() >= 3);
  const double seq = j["sequences_per_second"], tokens = j["tokens_per_second"], gflops = j["gflops"];
  const double peak = j["peak_gflops"], share = j["peak_share"], cpu = j["cpu_share"], median = j["median_seconds"];
  CHECK(seq > 0);
  CHECK(peak > 0);
  CHECK(cpu > 0);
  CHECK(seq == doctest::Approx(1.0 / median).epsilon(1e-9));
  CHECK(tokens == doctest::Approx(seq * 8).epsilon(1e-9));
  CHECK(gflops == doctest::Approx(seq * minilm_flops(8) / 1e9).epsilon(1e-9));
  CHECK(share == doctest::Approx(gflops / peak).epsilon(1e-9));

  auto table = bktest::run_bertkit({"bench", "--shape", "minilm-l6", "--workloads", "2x8", "--threads", "1",
                                    "--min-time", "0", "--runs", "1"});
  REQUIRE_MESSAGE(table.exit_code == 0, table.err);
  auto lines = bktest::split_lines(table.out);
  REQUIRE(lines.size() == 3);  // what was timed, the column names, one row
  CHECK(lines[1].find("seq/s") != std::string::npos);
  CHECK(lines[2].find("2x8") != std::string::npos);
}

TEST_CASE("bench: --save writes a folder that info describes, embed runs on and bench times") {
  bktest::TempDir dir;
  const auto folder = (dir / "minilm").string();
  auto save = bktest::run_bertkit({"bench", "--shape", "minilm-l6", "--save", folder});
  REQUIRE_MESSAGE(save.exit_code == 0, save.err);
  CHECK(save.out.empty());
  for (const char* file : {"config.json", "model.safetensors", "vocab.txt"})
    CHECK(std::filesystem::exists(dir / "minilm" / file));

  auto info = bktest::run_bertkit({"info", "--json", folder});
  REQUIRE_MESSAGE(info.exit_code == 0, info.err);
  CHECK(info.err.empty());  // every tensor used, none missing
  auto described = nlohmann::json::parse(info.out);
  CHECK(described["architecture"] == "BertModel");
  CHECK(described["num_layers"] == 6);
  CHECK(described["hidden_size"] == 384);

  auto embed = bktest::run_bertkit({"embed", "-m", folder, "hello world"});
  REQUIRE_MESSAGE(embed.exit_code == 0, embed.err);
  auto e = only_record(embed);
  CHECK(e["embedding"].size() == 384);

  // The folder holds the very model --shape times: the same weights give the same embedding.
  auto again = bktest::run_bertkit({"bench", "--shape", "minilm-l6", "--save", (dir / "again").string()});
  REQUIRE(again.exit_code == 0);
  CHECK(bktest::read_file(dir / "again" / "model.safetensors") == bktest::read_file(dir / "minilm" / "model.safetensors"));

  auto timed = bktest::run_bertkit({"bench", "-m", folder, "--workloads", "1x8", "--threads", "1", "--format", "jsonl",
                                    "--min-time", "0", "--runs", "1"});
  REQUIRE_MESSAGE(timed.exit_code == 0, timed.err);
  auto t = only_record(timed);
  CHECK(t["model"] == folder);
  CHECK(t["layers"] == 6);
  CHECK(t["sequences_per_second"].get<double>() > 0);
}

TEST_CASE("bench --corpus: real lines fed packed and padded, with the padding they cost") {
  bktest::TempDir dir;
  const std::vector<std::string> lines = {"Short one.", "A somewhat longer line of text, with a clause or two in it.",
                                          "Mid-length sentence here.", "Hi", "The longest line of them all, which goes "
                                          "on and on about nothing in particular for quite a while indeed."};
  std::string text;
  for (const auto& l : lines) text += l + "\n";
  bktest::write_file(dir / "corpus.txt", text);
  // Token counts as `bertkit tokenize` gives them (the built-in vocabulary, as --shape uses).
  auto ids = bktest::run_bertkit({"tokenize", "--format", "ids", "-i", (dir / "corpus.txt").string()});
  REQUIRE(ids.exit_code == 0);
  std::vector<long> counts;
  for (const auto& line : bktest::split_lines(ids.out))
    counts.push_back(static_cast<long>(std::count(line.begin(), line.end(), ' ') + 1));
  REQUIRE(counts.size() == lines.size());
  const long total = std::accumulate(counts.begin(), counts.end(), 0L);
  const long longest = *std::max_element(counts.begin(), counts.end());

  auto r = bktest::run_bertkit({"bench", "--shape", "minilm-l6", "--corpus", (dir / "corpus.txt").string(),
                                "--threads", "1", "--format", "jsonl"});
  REQUIRE_MESSAGE(r.exit_code == 0, r.err);
  auto records = bktest::json_lines(r.out);
  REQUIRE(records.size() == 2);
  for (const auto& j : records) {
    CHECK(j["mode"] == "corpus");
    CHECK(j["sequences"] == lines.size());
    CHECK(j["tokens"] == total);
    CHECK(j["batches"] == 1);
    const double tokens_per_s = j["tokens_per_second"], seconds = j["seconds"];
    CHECK(tokens_per_s == doctest::Approx(total / seconds).epsilon(1e-9));
  }
  CHECK(records[0]["feeding"] == "bertkit");
  CHECK(records[0]["computed_tokens"] == total);  // packed: no padding computed
  CHECK(records[0]["padding_fraction"] == 0.0);
  CHECK(records[1]["feeding"] == "sentence-transformers");
  CHECK(records[1]["computed_tokens"] == longest * static_cast<long>(lines.size()));
  CHECK(records[1]["padding_fraction"].get<double>() ==
        doctest::Approx(1.0 - static_cast<double>(total) / static_cast<double>(longest * lines.size())));
}

TEST_CASE("bench --tokenizer: MB/s of the built-in sample, repeated to the size asked") {
  auto r = bktest::run_bertkit({"bench", "--tokenizer", "--mb", "1", "--threads", "1", "--runs", "1", "--format", "jsonl"});
  REQUIRE_MESSAGE(r.exit_code == 0, r.err);
  auto j = only_record(r);
  CHECK(j["mode"] == "tokenizer");
  CHECK(j["bytes"].get<double>() >= 1 << 20);
  CHECK(j["tokens"].get<double>() > j["lines"].get<double>());
  const double mb = j["mb_per_second"], seconds = j["median_seconds"];
  CHECK(mb == doctest::Approx(j["bytes"].get<double>() / seconds / 1e6).epsilon(1e-9));
}

TEST_CASE("bench: bad flags are usage errors") {
  const std::vector<std::vector<std::string>> bad = {
      {"bench", "--shape", "gpt-2"},
      {"bench", "--shape", "minilm-l6", "--workloads", "8y128"},
      {"bench", "--shape", "minilm-l6", "--workloads", "0x128"},
      {"bench", "--shape", "minilm-l6", "--workloads", "8x"},
      {"bench", "--shape", "minilm-l6", "--workloads", "1x128,1x600"},  // past the model's 512 positions
      {"bench", "--shape", "minilm-l6", "--threads", "0"},
      {"bench", "--shape", "minilm-l6", "--threads", "1,x"},
      {"bench", "--shape", "minilm-l6", "--format", "xml"},
      {"bench", "--shape", "minilm-l6", "--dtype", "f64"},
      {"bench", "--shape", "minilm-l6", "-m", "some-model"},
      {"bench"},
      {"bench", "--save", "/tmp/never-written"},
      {"bench", "--tokenizer", "--shape", "minilm-l6"},
      {"bench", "--shape", "minilm-l6", "--bogus"},
      {"bench", "--tokenizer", "--profile"},
      {"bench", "--attention", "64", "--profile"},
  };
  for (const auto& args : bad) {
    CAPTURE(args.back());
    auto r = bktest::run_bertkit(args);
    CHECK(r.exit_code == 2);
    CHECK(r.out.empty());
    CHECK(!r.err.empty());
  }
  // Checked before the table's header is printed, naming the workload and the limit.
  auto r = bktest::run_bertkit({"bench", "--shape", "minilm-l6", "--workloads", "1x600"});
  CHECK(r.out.empty());
  CHECK(r.err == "bertkit: error: --workloads: 1x600 is longer than the model takes (512 tokens, max_position_embeddings)\n");
}

TEST_CASE("bench --dtype: bf16 and int8 time the shape's model in that type") {
  for (const char* dtype : {"bf16", "int8"}) {
    CAPTURE(dtype);
    auto r = bktest::run_bertkit({"bench", "--shape", "minilm-l6", "--dtype", dtype, "--workloads", "1x8", "--threads",
                                  "1", "--format", "jsonl", "--min-time", "0", "--runs", "1"});
    REQUIRE_MESSAGE(r.exit_code == 0, r.err);
    auto j = only_record(r);
    CHECK(j["dtype"] == dtype);
    CHECK(j["sequences_per_second"].get<double>() > 0);
  }
}

TEST_CASE("bench -m FILE.bk times the type the file stores, as every command computes it (issue 30)") {
  bktest::TempDir dir;
  const auto folder = bktest::shared("fixtures/models/minilm-embed").string();
  const auto timed_dtype = [](const std::vector<std::string>& extra, const std::string& model) {
    std::vector<std::string> args{"bench", "-m", model, "--workloads", "1x8", "--threads", "1", "--format", "jsonl",
                                  "--min-time", "0", "--runs", "1"};
    args.insert(args.end(), extra.begin(), extra.end());
    auto r = bktest::run_bertkit(args);
    INFO(r.err);
    REQUIRE(r.exit_code == 0);
    return only_record(r)["dtype"].get<std::string>();
  };
  const auto int8 = (dir / "int8.bk").string(), f16 = (dir / "f16.bk").string();
  REQUIRE(bktest::run_bertkit({"convert", "--dtype", "int8", folder, int8}).exit_code == 0);
  REQUIRE(bktest::run_bertkit({"convert", "--dtype", "f16", folder, f16}).exit_code == 0);
  CHECK(timed_dtype({}, int8) == "int8");
  CHECK(timed_dtype({}, f16) == "f32");  // f16 files compute in f32, in every command
  CHECK(timed_dtype({}, folder) == "f32");
  // An explicit --dtype converts at load, as embed --dtype does (an int8 file widened to f32).
  CHECK(timed_dtype({"--dtype", "f32"}, int8) == "f32");
  CHECK(timed_dtype({"--dtype", "int8"}, folder) == "int8");
  // The table's header says the type timed too.
  auto table = bktest::run_bertkit({"bench", "-m", int8, "--workloads", "1x8", "--threads", "1", "--min-time", "0", "--runs", "1"});
  REQUIRE(table.exit_code == 0);
  CHECK(table.out.find("dtype int8") != std::string::npos);
}

TEST_CASE("bench --profile: each op's time per batch, adding up to the batch's") {
  for (const char* dtype : {"f32", "bf16", "int8"}) {
    CAPTURE(dtype);
    auto r = bktest::run_bertkit({"bench", "--shape", "minilm-l6", "--dtype", dtype, "--workloads", "2x32", "--threads",
                                  "1", "--format", "jsonl", "--min-time", "0", "--runs", "2", "--profile"});
    REQUIRE_MESSAGE(r.exit_code == 0, r.err);
    auto j = only_record(r);
    REQUIRE(j["ops"].is_array());
    double ms = 0;
    std::int64_t attention_calls = 0, matmul_calls = 0;
    for (const auto& op : j["ops"]) {
      const std::string name = op["op"];
      CHECK(op["ms"].get<double>() >= 0);
      ms += op["ms"].get<double>();
      if (name == "attention") attention_calls = op["calls"];
      // One matmul of each layer's four shapes per layer (the Q|K|V projection is one).
      if (name.starts_with("matmul ") || name.starts_with("int8 matmul")) {
        CHECK(op["calls"] == kLayers);
        matmul_calls += op["calls"].get<std::int64_t>();
      }
    }
    CHECK(attention_calls == kLayers);
    CHECK(matmul_calls == 4 * kLayers);
    CHECK(j["ops"].back()["op"] == "other");  // what no op timed, last
    CHECK(ms == doctest::Approx(1e3 * j["mean_seconds"].get<double>()).epsilon(1e-6));
  }
  auto table = bktest::run_bertkit({"bench", "--shape", "minilm-l6", "--workloads", "1x8", "--threads", "1",
                                    "--min-time", "0", "--runs", "1", "--profile"});
  REQUIRE_MESSAGE(table.exit_code == 0, table.err);
  CHECK(table.out.find("384x1536 f32") != std::string::npos);  // "matmul", or "matmul (row blocks)" on AVX2
  CHECK(table.out.find("layer norm") != std::string::npos);
}

TEST_CASE("bench: --save gives an MPNet shape all-mpnet-base-v2's tokenizer, which embed runs on") {
  bktest::TempDir dir;
  const auto folder = (dir / "mpnet").string();
  // A one-layer MPNet of the mpnet-base config's vocabulary and positions (the full shape is 440 MB).
  const bertkit::core::ModelShape tiny{"mpnet-tiny", 1, 32, 2, 64, "mpnet"};
  const auto written = bertkit::cmd::save_model_folder(tiny, bertkit::cmd::random_model_weights(tiny), folder);
  CHECK(written == std::vector<std::string>{"config.json", "model.safetensors", "vocab.txt", "tokenizer.json"});

  // The Hub's tokenizer.json, but for the truncation and padding it was saved with.
  auto saved = bktest::read_json(dir / "mpnet" / "tokenizer.json");
  auto hub = bktest::read_json(bktest::shared("vocab/all-mpnet-base-v2/tokenizer.json"));
  for (const char* key : {"normalizer", "pre_tokenizer", "post_processor", "decoder", "model"}) {
    CAPTURE(key);
    CHECK(saved[key] == hub[key]);
  }
  auto sorted = [](nlohmann::json tokens) {
    std::sort(tokens.begin(), tokens.end(), [](const auto& a, const auto& b) { return a["id"] < b["id"]; });
    return tokens;
  };
  CHECK(sorted(saved["added_tokens"]) == sorted(hub["added_tokens"]));
  const std::string vocab = bktest::read_file(dir / "mpnet" / "vocab.txt");
  CHECK(bktest::count_lines(vocab) == 30527);
  CHECK(vocab.starts_with("<s>\n<pad>\n</s>\n<unk>\n[PAD]\n"));

  const std::vector<std::string> texts = {"Hello world", "A man is eating food.", "naïve café, 東京"};
  auto ids_of = [&](const std::string& model) {
    std::vector<std::string> args = {"tokenize", "-m", model};
    args.insert(args.end(), texts.begin(), texts.end());
    auto r = bktest::run_bertkit(args);
    REQUIRE_MESSAGE(r.exit_code == 0, r.err);
    return r.out;
  };
  CHECK(ids_of(folder) == ids_of(bktest::shared("vocab/all-mpnet-base-v2").string()));
  auto embed = bktest::run_bertkit({"embed", "-m", folder, "hello world"});
  REQUIRE_MESSAGE(embed.exit_code == 0, embed.err);
  CHECK(only_record(embed)["embedding"].size() == 32);
}
