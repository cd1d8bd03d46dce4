#include "commands/bench_tokenizer.h"

#include "core/bench/cpu_clock.h"
#include "core/error.h"
#include "core/files.h"
#include "tokenizer/utf8.h"

#include <omp.h>

#include <algorithm>
#include <chrono>

namespace bertkit::cmd {

namespace {

// Public-domain English prose of several registers (Lincoln, the Declaration of Independence, Darwin,
// Melville, a technical paragraph), with numbers, punctuation and capitals for the tokenizer to split.
constexpr std::string_view kEnglishSample = R"(Four score and seven years ago our fathers brought forth on this continent, a new nation, conceived in Liberty, and dedicated to the proposition that all men are created equal.
Now we are engaged in a great civil war, testing whether that nation, or any nation so conceived and so dedicated, can long endure.
We hold these truths to be self-evident, that all men are created equal, that they are endowed by their Creator with certain unalienable Rights, that among these are Life, Liberty and the pursuit of Happiness.
When on board H.M.S. 'Beagle,' as naturalist, I was much struck with certain facts in the distribution of the inhabitants of South America, and in the geological relations of the present to the past inhabitants of that continent.
Call me Ishmael. Some years ago - never mind how long precisely - having little or no money in my purse, and nothing particular to interest me on shore, I thought I would sail about a little and see the watery part of the world.
It is a way I have of driving off the spleen and regulating the circulation; whenever I find myself growing grim about the mouth, I account it high time to get to sea as soon as I can.
The server returned HTTP 503 after 30.5 seconds; retrying with exponential back-off (2, 4, 8 s) fixed 97% of the failed requests in the 2019-2021 logs.
Install the package with `apt-get install -y libfoo-dev`, then run ./configure --prefix=/usr/local && make -j4 to build it.
Prices rose 3.2% in March, the fastest pace since 1991, while wages grew by only 1.4% over the same period.
Don't panic: it's only a test, and you'll be fine if you read the instructions (all 12 pages of them) before you begin!
)";

// The non-empty lines; BadInput naming the line that is not UTF-8 (the tokenizer takes only UTF-8).
std::vector<std::string> split_lines(std::string_view text, std::string_view source) {
  std::vector<std::string> lines;
  for (std::size_t number = 1; !text.empty(); ++number) {
    auto nl = text.find('\n');
    auto line = text.substr(0, nl);
    if (!line.empty() && line.back() == '\r') line.remove_suffix(1);
    if (tok::valid_utf8_prefix(line) != line.size()) bad_input("{}:{}: not valid UTF-8", source, number);
    if (!line.empty()) lines.emplace_back(line);
    text = nl == std::string_view::npos ? std::string_view() : text.substr(nl + 1);
  }
  return lines;
}

}  // namespace

std::vector<std::string> read_text_lines(const std::string& file) {
  return split_lines(core::read_text_file(file), file);
}

std::vector<std::string> tokenizer_bench_lines(const std::optional<std::string>& file, std::size_t min_bytes) {
  const std::vector<std::string> base = file ? read_text_lines(*file) : split_lines(kEnglishSample, "the built-in sample");
  if (base.empty()) bad_input("{}: no text to tokenize", file.value_or("the built-in sample"));
  std::vector<std::string> lines;
  std::size_t bytes = 0;
  while (bytes < min_bytes || lines.empty())
    for (const auto& line : base) {
      lines.push_back(line);
      bytes += line.size() + 1;
    }
  return lines;
}

TokenizerTiming time_tokenizer(const tok::Tokenizer& tokenizer, std::span<const std::string> lines, int threads,
                               int runs) {
  TokenizerTiming t;
  t.threads = threads;
  t.lines = lines.size();
  for (const auto& l : lines) t.bytes += l.size() + 1;
  std::vector<double> seconds;
  double cpu = 0;
  const auto n = static_cast<std::ptrdiff_t>(lines.size());
  for (int r = 0; r < std::max(runs, 1); ++r) {
    std::size_t tokens = 0;
    const double cpu_start = core::process_cpu_seconds();
    const auto start = std::chrono::steady_clock::now();
#pragma omp parallel num_threads(threads) reduction(+ : tokens)
    {
      tok::Encoding e;  // reused, as the commands reuse theirs from batch to batch
#pragma omp for schedule(dynamic, 256)
      for (std::ptrdiff_t i = 0; i < n; ++i) {
        const std::string& text = lines[static_cast<std::size_t>(i)];
        tokenizer.encode(text, std::nullopt, {}, e);
        tok::to_char_offsets(text, e.offsets);
        tokens += e.size();
      }
    }
    seconds.push_back(std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count());
    cpu += core::process_cpu_seconds() - cpu_start;
    t.tokens = tokens;
  }
  double total = 0;
  for (double s : seconds) total += s;
  std::sort(seconds.begin(), seconds.end());
  t.runs = static_cast<int>(seconds.size());
  t.median_seconds = seconds[seconds.size() / 2];
  t.cpu_share = cpu / (total * threads);
  return t;
}

}  // namespace bertkit::cmd
