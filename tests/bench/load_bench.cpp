// Time from process start to a loaded model, and the memory that costs, for a random-weight model of
// BERT-base size: its Hugging Face folder (model.safetensors) and the same model after `bertkit convert`.
// Each run is a fresh `bertkit info MODEL` process (spawn, load, print, exit), timed with the wall clock,
// with its CPU time and peak resident memory from wait4(); "in-process" is load_model() alone. The first row,
// `bertkit --version`, is the cost of starting the program at all. Not a test: it prints figures;
// quote the medians (of the whole table: a busy machine inflates every row alike).
//
//   build/tests/bertkit_load_bench [--runs 15] [--dir /tmp/somewhere] [--shape bert-base|minilm-l6]
#include "core/loading/model_source.h"
#include "core/error.h"

#include <fmt/format.h>
#include <fmt/ranges.h>
#include <nlohmann/json.hpp>
#include <spawn.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <fcntl.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

extern char** environ;

namespace {

namespace fs = std::filesystem;

struct Shape {
  const char* name;
  int vocab, hidden, layers, heads, inter, positions;
};
constexpr Shape kShapes[] = {{"bert-base", 30522, 768, 12, 12, 3072, 512}, {"minilm-l6", 30522, 384, 6, 12, 1536, 512}};

// A BertModel folder with seeded random weights: config.json, model.safetensors, a vocab.txt.
void write_random_bert(const fs::path& dir, const Shape& s) {
  fs::create_directories(dir);
  nlohmann::json config = {{"architectures", {"BertModel"}}, {"model_type", "bert"}, {"vocab_size", s.vocab},
                           {"hidden_size", s.hidden}, {"num_hidden_layers", s.layers},
                           {"num_attention_heads", s.heads}, {"intermediate_size", s.inter},
                           {"max_position_embeddings", s.positions}, {"type_vocab_size", 2}};
  std::ofstream(dir / "config.json") << config.dump(2);
  std::ofstream vocab(dir / "vocab.txt");
  for (int i = 0; i < s.vocab; ++i) vocab << "[unused" << i << "]\n";

  std::vector<std::pair<std::string, std::vector<std::int64_t>>> tensors = {
      {"embeddings.word_embeddings.weight", {s.vocab, s.hidden}},
      {"embeddings.position_embeddings.weight", {s.positions, s.hidden}},
      {"embeddings.token_type_embeddings.weight", {2, s.hidden}},
      {"embeddings.LayerNorm.weight", {s.hidden}},
      {"embeddings.LayerNorm.bias", {s.hidden}},
  };
  for (int l = 0; l < s.layers; ++l) {
    std::string p = fmt::format("encoder.layer.{}.", l);
    for (const char* m : {"attention.self.query", "attention.self.key", "attention.self.value", "attention.output.dense"}) {
      tensors.push_back({p + m + ".weight", {s.hidden, s.hidden}});
      tensors.push_back({p + m + ".bias", {s.hidden}});
    }
    for (const char* m : {"attention.output.LayerNorm", "output.LayerNorm"}) {
      tensors.push_back({p + m + ".weight", {s.hidden}});
      tensors.push_back({p + m + ".bias", {s.hidden}});
    }
    tensors.push_back({p + "intermediate.dense.weight", {s.inter, s.hidden}});
    tensors.push_back({p + "intermediate.dense.bias", {s.inter}});
    tensors.push_back({p + "output.dense.weight", {s.hidden, s.inter}});
    tensors.push_back({p + "output.dense.bias", {s.hidden}});
  }
  tensors.push_back({"pooler.dense.weight", {s.hidden, s.hidden}});
  tensors.push_back({"pooler.dense.bias", {s.hidden}});

  nlohmann::json header = {{"__metadata__", {{"format", "pt"}}}};
  std::uint64_t offset = 0;
  for (const auto& [name, shape] : tensors) {
    std::uint64_t n = 4;
    for (auto d : shape) n *= static_cast<std::uint64_t>(d);
    header[name] = {{"dtype", "F32"}, {"shape", shape}, {"data_offsets", {offset, offset + n}}};
    offset += n;
  }
  std::string text = header.dump();
  while (text.size() % 8) text.push_back(' ');
  std::ofstream out(dir / "model.safetensors", std::ios::binary);
  std::uint64_t len = text.size();
  out.write(reinterpret_cast<const char*>(&len), 8);
  out << text;
  std::uint64_t state = 0x9E3779B97F4A7C15ull;
  std::vector<float> chunk(1 << 20);
  for (std::uint64_t left = offset / 4; left > 0;) {
    std::size_t n = std::min<std::uint64_t>(left, chunk.size());
    for (std::size_t i = 0; i < n; ++i) {
      state = state * 6364136223846793005ull + 1442695040888963407ull;
      chunk[i] = static_cast<float>(static_cast<std::int32_t>(state >> 32)) * 0x1p-36f;  // about +-0.03
    }
    out.write(reinterpret_cast<const char*>(chunk.data()), static_cast<std::streamsize>(n * 4));
    left -= n;
  }
}

struct Run {
  double ms;          // wall clock: inflated when other processes compete for the cores
  double cpu_ms;      // user + system time of the process: what the load itself costs
  double max_rss_mb;
};

// Runs the binary with its output to /dev/null; wall time and peak RSS of the child.
Run run(const std::vector<std::string>& args) {
  std::vector<char*> argv;
  for (const auto& a : args) argv.push_back(const_cast<char*>(a.c_str()));
  argv.push_back(nullptr);
  posix_spawn_file_actions_t actions;
  posix_spawn_file_actions_init(&actions);
  posix_spawn_file_actions_addopen(&actions, 1, "/dev/null", O_WRONLY, 0);
  auto start = std::chrono::steady_clock::now();
  pid_t pid;
  if (posix_spawn(&pid, argv[0], &actions, nullptr, argv.data(), environ) != 0)
    bertkit::runtime_error("cannot run {}", args[0]);
  int status = 0;
  struct rusage usage {};
  wait4(pid, &status, 0, &usage);
  auto end = std::chrono::steady_clock::now();
  posix_spawn_file_actions_destroy(&actions);
  if (!WIFEXITED(status) || WEXITSTATUS(status) != 0) bertkit::runtime_error("{} failed", fmt::join(args, " "));
  auto ms = [](const timeval& t) { return static_cast<double>(t.tv_sec) * 1e3 + static_cast<double>(t.tv_usec) / 1e3; };
  return {std::chrono::duration<double, std::milli>(end - start).count(), ms(usage.ru_utime) + ms(usage.ru_stime),
          static_cast<double>(usage.ru_maxrss) / 1024.0};
}

Run median(std::vector<Run> runs) {
  auto mid = runs.size() / 2;
  std::nth_element(runs.begin(), runs.begin() + static_cast<std::ptrdiff_t>(mid), runs.end(),
                   [](const Run& a, const Run& b) { return a.ms < b.ms; });
  Run out = runs[mid];
  std::vector<double> cpu;
  for (const Run& r : runs) {
    out.max_rss_mb = std::max(out.max_rss_mb, r.max_rss_mb);
    cpu.push_back(r.cpu_ms);
  }
  std::nth_element(cpu.begin(), cpu.begin() + static_cast<std::ptrdiff_t>(mid), cpu.end());
  out.cpu_ms = cpu[mid];
  return out;
}

}  // namespace

int main(int argc, char** argv) try {
  int runs = 15;
  std::string shape_name = "bert-base";
  fs::path dir = fs::temp_directory_path() / "bertkit-load-bench";
  for (int i = 1; i + 1 < argc; i += 2) {
    if (!std::strcmp(argv[i], "--runs")) runs = std::stoi(argv[i + 1]);
    else if (!std::strcmp(argv[i], "--dir")) dir = argv[i + 1];
    else if (!std::strcmp(argv[i], "--shape")) shape_name = argv[i + 1];
    else bertkit::usage_error("unknown option {}", argv[i]);
  }
  const Shape* shape = nullptr;
  for (const Shape& s : kShapes)
    if (shape_name == s.name) shape = &s;
  if (!shape) bertkit::usage_error("unknown shape {}", shape_name);

  const std::string binary = BERTKIT_BINARY;
  const fs::path folder = dir / shape->name, converted = dir / (std::string(shape->name) + ".bk");
  if (!fs::exists(folder / "model.safetensors")) write_random_bert(folder, *shape);
  for (const char* dtype : {"f32", "int8"}) {
    auto file = dir / fmt::format("{}-{}.bk", shape->name, dtype);
    if (!fs::exists(file)) {
      auto t = run({binary, "--quiet", "convert", "--dtype", dtype, folder.string(), file.string()});
      fmt::print("convert --dtype {}: {:.0f} ms\n", dtype, t.ms);
    }
  }
  auto baseline = median([&] {
    std::vector<Run> r;
    for (int i = 0; i < runs; ++i) r.push_back(run({binary, "--version"}));
    return r;
  }());
  fmt::print("{:<24} {:>11} {:>11} {:>11} {:>12} {:>14}\n", "model", "on disk MB", "process ms", "cpu ms",
             "peak RSS MB", "in-process ms");
  fmt::print("{:<24} {:>11} {:>11.1f} {:>11.1f} {:>12.1f} {:>14}\n", "(bertkit --version)", "-", baseline.ms,
             baseline.cpu_ms, baseline.max_rss_mb, "-");
  std::vector<std::pair<std::string, fs::path>> models = {
      {"folder (safetensors)", folder},
      {"converted f32", dir / fmt::format("{}-f32.bk", shape->name)},
      {"converted int8", dir / fmt::format("{}-int8.bk", shape->name)}};
  for (const auto& [label, path] : models) {
    std::uintmax_t bytes = 0;
    if (fs::is_directory(path)) {
      for (const auto& e : fs::directory_iterator(path)) bytes += e.file_size();
    } else {
      bytes = fs::file_size(path);
    }
    std::vector<Run> r;
    for (int i = 0; i < runs; ++i) r.push_back(run({binary, "info", path.string()}));
    Run m = median(r);
    std::vector<double> in_process;
    for (int i = 0; i < runs; ++i) {
      auto start = std::chrono::steady_clock::now();
      auto model = bertkit::core::load_model(path.string());
      in_process.push_back(std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count());
    }
    std::nth_element(in_process.begin(), in_process.begin() + runs / 2, in_process.end());
    fmt::print("{:<24} {:>11.1f} {:>11.1f} {:>11.1f} {:>12.1f} {:>14.2f}\n", label, static_cast<double>(bytes) / 1e6, m.ms,
               m.cpu_ms, m.max_rss_mb, in_process[static_cast<std::size_t>(runs / 2)]);
  }
  return 0;
} catch (const std::exception& e) {
  fmt::print(stderr, "bertkit_load_bench: {}\n", e.what());
  return 1;
}
