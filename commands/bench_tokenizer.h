#pragma once
// `bertkit bench --tokenizer`: the tokenizer's throughput in MB of input text per second, with offsets
// converted to code points as `bertkit tokenize` prints them.
#include "tokenizer/tokenizer.h"

#include <cstddef>
#include <optional>
#include <span>
#include <string>
#include <vector>

namespace bertkit::cmd {

// The non-empty lines of a UTF-8 text file (BadInput naming the first line that is not UTF-8).
std::vector<std::string> read_text_lines(const std::string& file);

// The lines of `file` (else a built-in sample of English prose), repeated until they hold at least
// `min_bytes`. A repeated small text keeps the tokenizer's word cache warm: real text of that size
// runs slower.
std::vector<std::string> tokenizer_bench_lines(const std::optional<std::string>& file, std::size_t min_bytes);

struct TokenizerTiming {
  int threads = 0;
  std::size_t bytes = 0, lines = 0, tokens = 0;
  int runs = 0;
  double median_seconds = 0;
  double cpu_share = 0;  // process CPU time over wall time × threads
};

// Encodes every line on `threads` threads, `runs` times; the median pass is reported.
TokenizerTiming time_tokenizer(const tok::Tokenizer& tokenizer, std::span<const std::string> lines, int threads,
                               int runs);

}  // namespace bertkit::cmd
