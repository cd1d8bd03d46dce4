// Tokenizer throughput: MB/s of input text, one thread and all threads, with offsets (bytes converted to
// code points as `bertkit tokenize` prints them). Not a test: it prints figures.
//
//   build/tests/bertkit_tokenizer_bench [--mb 64] [--model bert-base-uncased] [--repeat 3] [--set english]
//
// With --stream-mb N it measures memory instead: `bertkit tokenize -i FILE -o /dev/null` on a 16 MB file
// and on an N MB one (the English set repeated), printing each run's peak RSS, which stays flat when
// the line reader and the writer stream.
//
//   build/tests/bertkit_tokenizer_bench --stream-mb 1024
#include "support.h"

#include "tokenizer/loader.h"
#include "tokenizer/tokenizer.h"

#include <fmt/format.h>
#include <omp.h>
#include <spawn.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cstring>
#include <ctime>
#include <fstream>

namespace {

std::vector<std::string> build_corpus(const std::vector<std::string>& files, std::size_t min_bytes) {
  std::vector<std::string> base;
  for (const auto& f : files)
    for (auto& line : bktest::read_lines(bktest::shared("corpora/" + f))) {
      if (f.ends_with(".tsv")) std::replace(line.begin(), line.end(), '\t', ' ');
      base.push_back(std::move(line));
    }
  std::vector<std::string> lines;
  std::size_t bytes = 0;
  while (bytes < min_bytes)
    for (const auto& l : base) {
      lines.push_back(l);
      bytes += l.size() + 1;
    }
  return lines;
}

double process_cpu_seconds() {
  timespec ts;
  clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
  return static_cast<double>(ts.tv_sec) + static_cast<double>(ts.tv_nsec) * 1e-9;
}

// Returns wall seconds; `cpu` gets the CPU seconds all threads spent, which a busy machine inflates less.
double run(const bertkit::tok::Tokenizer& tok, const std::vector<std::string>& lines, int threads, std::size_t& tokens,
           double& cpu) {
  std::size_t total_tokens = 0;
  double cpu_start = process_cpu_seconds();
  auto start = std::chrono::steady_clock::now();
  const auto n = static_cast<std::ptrdiff_t>(lines.size());
#pragma omp parallel num_threads(threads) reduction(+ : total_tokens)
  {
  // Each thread reuses one encoding, as the commands do from batch to batch.
  bertkit::tok::Encoding e;
#pragma omp for schedule(dynamic, 256)
  for (std::ptrdiff_t i = 0; i < n; ++i) {
    const std::string& text = lines[static_cast<std::size_t>(i)];
    tok.encode(text, std::nullopt, {}, e);
    bertkit::tok::to_char_offsets(text, e.offsets);
    total_tokens += e.size();
  }
  }
  tokens = total_tokens;
  cpu = process_cpu_seconds() - cpu_start;
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
}

// Runs `bertkit tokenize -i path -o /dev/null`; returns its peak RSS in MB and sets its wall seconds.
double tokenize_peak_rss_mb(const std::filesystem::path& path, double& seconds) {
  std::vector<std::string> args{BERTKIT_BINARY, "tokenize", "-i", path.string(), "-o", "/dev/null"};
  std::vector<char*> argv;
  for (auto& a : args) argv.push_back(a.data());
  argv.push_back(nullptr);
  auto start = std::chrono::steady_clock::now();
  pid_t pid;
  if (posix_spawn(&pid, BERTKIT_BINARY, nullptr, nullptr, argv.data(), environ) != 0)
    throw std::runtime_error("cannot start " BERTKIT_BINARY);
  int status = 0;
  rusage usage{};
  wait4(pid, &status, 0, &usage);
  seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  if (!WIFEXITED(status) || WEXITSTATUS(status) != 0) throw std::runtime_error("bertkit tokenize failed");
  return static_cast<double>(usage.ru_maxrss) / 1024.0;  // ru_maxrss is in KiB
}

void stream_memory(const std::vector<std::string>& lines, std::size_t big_mb) {
  bktest::TempDir dir;
  for (std::size_t mb : {std::size_t{16}, big_mb}) {
    auto path = dir / fmt::format("input-{}mb.txt", mb);
    std::size_t bytes = 0;
    {
      std::ofstream out(path, std::ios::binary);
      while (bytes < (mb << 20))
        for (const auto& l : lines) {
          out << l << '\n';
          bytes += l.size() + 1;
        }
    }
    double seconds = 0;
    double rss = tokenize_peak_rss_mb(path, seconds);
    fmt::print("tokenize -i {:5} MB file -o /dev/null: peak RSS {:6.1f} MB, {:6.1f} s ({:.1f} MB/s)\n", bytes >> 20,
               rss, seconds, bytes / seconds / 1e6);
    std::filesystem::remove(path);
  }
}

}  // namespace

int main(int argc, char** argv) {
  std::size_t mb = 64;
  int repeat = 3;
  std::string model = "bert-base-uncased";
  std::string only;  // one set by name
  std::size_t stream_mb = 0;
  for (int i = 1; i + 1 < argc; i += 2) {
    if (!std::strcmp(argv[i], "--mb")) mb = std::stoul(argv[i + 1]);
    if (!std::strcmp(argv[i], "--repeat")) repeat = std::stoi(argv[i + 1]);
    if (!std::strcmp(argv[i], "--model")) model = argv[i + 1];
    if (!std::strcmp(argv[i], "--set")) only = argv[i + 1];
    if (!std::strcmp(argv[i], "--stream-mb")) stream_mb = std::stoul(argv[i + 1]);
  }
  auto spec = bertkit::tok::build_tokenizer_spec(
      bertkit::tok::read_tokenizer_files(bktest::shared("vocab/" + model + "/tokenizer.json")));
  bertkit::tok::Tokenizer tok(std::move(spec));
  struct Set {
    const char* name;
    std::vector<std::string> files;
  };
  std::vector<Set> sets = {
      {"english", {"en_sst2_dev.txt", "en_agnews.txt", "fortunes_en_min.txt", "licenses.txt", "man_en_dev.txt", "words_en.txt"}},
      {"multilingual", {"udhr.txt", "man_de.txt", "man_fr.txt", "man_ru.txt", "man_ja.txt", "debian_reference_zh_cn.txt",
                        "fortunes_de.txt", "fortunes_ru.txt", "isocodes.txt", "words_fr.txt", "words_de.txt", "emoji.txt"}},
  };
  if (stream_mb) {
    stream_memory(build_corpus(sets[0].files, 1), stream_mb);
    return 0;
  }
  int max_threads = omp_get_max_threads();
  fmt::print("model {} ({} tokens), {} MB per set, best of {}\n", model, tok.vocab_size(), mb, repeat);
  for (const Set& set : sets) {
    if (!only.empty() && only != set.name) continue;
    auto lines = build_corpus(set.files, mb << 20);
    std::size_t bytes = 0;
    for (const auto& l : lines) bytes += l.size() + 1;
    for (int threads : {1, max_threads}) {
      double best = 1e30, best_cpu = 1e30;
      std::size_t tokens = 0;
      for (int r = 0; r < repeat; ++r) {
        double cpu = 0;
        best = std::min(best, run(tok, lines, threads, tokens, cpu));
        best_cpu = std::min(best_cpu, cpu);
      }
      fmt::print("{:13} {:2} thread{} {:8.1f} MB/s {:6.2f} M tokens/s  (per CPU-second: {:.1f} MB; {} lines, {:.1f} MB)\n",
                 set.name, threads, threads == 1 ? " " : "s", bytes / best / 1e6, tokens / best / 1e6,
                 bytes / best_cpu / 1e6 * threads, lines.size(), bytes / 1e6);
    }
  }
}
