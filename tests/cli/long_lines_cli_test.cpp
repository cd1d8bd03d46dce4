// Memory on long lines (issue 19, item 12): a model command tokenizes a line only as far as the model
// reads it, tokenize --count keeps no tokens, tokenize keeps a few times the line, and --max-line-bytes
// refuses a longer line naming it. Peak memory is bertkit's largest resident set as /usr/bin/time reports
// it: a process started from this one would count this one's memory too (Linux keeps the high-water
// mark of the memory a process had before exec). It is checked only outside the sanitizers, whose shadow
// memory and quarantine would be measured too.
#include "measured_run.h"
#include "task_cli_helpers.h"

#include <doctest/doctest.h>
#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include <string>
#include <vector>

using bktest::run_bertkit;
using nlohmann::json;

using bktest::kMeasured;
using bktest::run_measured;

namespace {

// `bytes` of English-like words (some accented, some split by WordPiece), ending at a word.
std::string long_line(std::size_t bytes) {
  static const char* kWords[] = {"the", "quick", "brown", "fox", "jumps", "over", "lazy", "dog,", "na\xC3\xAFve",
                                 "caf\xC3\xA9", "unbelievable", "tokenization", "42."};
  std::string line;
  line.reserve(bytes + 16);
  for (std::size_t i = 0; line.size() < bytes; i = (i * 7 + 3) % 13) {
    line += kWords[i];
    line += ' ';
  }
  line.pop_back();
  return line;
}

long mb(long kb) { return kb / 1024; }

}  // namespace

TEST_CASE("a 32 MB line: embed reads only what the model sees, with the numbers of its first tokens") {
  bktest::TempDir dir;
  std::size_t line_bytes = 0;
  {
    const std::string line = long_line(32u << 20);
    line_bytes = line.size();
    bktest::write_file(dir / "long.txt", line + "\n");
    // The first 4,000 bytes hold far more tokens than the model reads: the same embedding.
    bktest::write_file(dir / "head.txt", line.substr(0, line.rfind(' ', 4000)) + "\n");
  }
  const std::string model = bktest::fixture_path("minilm-embed");
  auto whole = run_measured({"embed", "-m", model, "-i", (dir / "long.txt").string(), "--format", "jsonl"}, dir);
  auto start = run_measured({"embed", "-m", model, "-i", (dir / "head.txt").string(), "--format", "jsonl"}, dir);
  REQUIRE(whole.exit_code == 0);
  REQUIRE(start.exit_code == 0);
  MESSAGE("embed, 32 MB line: peak " << mb(whole.peak_rss_kb) << " MB; 4 KB line: " << mb(start.peak_rss_kb) << " MB");
  // The line is held as read, and echoed in the output buffer.
  if (kMeasured) CHECK(mb(whole.peak_rss_kb) < 3 * 32 + 128);
  const json a = json::parse(whole.out), b = json::parse(start.out);
  CHECK(a["embedding"] == b["embedding"]);
  CHECK(a["truncated"] == true);
  CHECK(a["text"].get<std::string>().size() == line_bytes);

  // --truncate error refuses it by its line.
  auto refused = run_bertkit({"embed", "-m", model, "-i", (dir / "long.txt").string(), "--truncate", "error"});
  CHECK(refused.exit_code == 3);
  CHECK(refused.err.find((dir / "long.txt").string() + ":1: longer than the model's maximum") != std::string::npos);
}

TEST_CASE("a 32 MB line: tokenize --count keeps no tokens, tokenize a few times the line") {
  bktest::TempDir dir;
  std::size_t code_points = 0;
  {
    const std::string line = long_line(32u << 20);
    for (char c : line) code_points += (static_cast<unsigned char>(c) & 0xC0) != 0x80;
    bktest::write_file(dir / "long.txt", "short line\n" + line + "\n");
  }
  const std::string path = (dir / "long.txt").string();

  auto count = run_measured({"tokenize", "--count", "--format", "ids", "-i", path}, dir);
  REQUIRE(count.exit_code == 0);
  long ids_rss = 0;
  std::size_t tokens = 1;
  {
    auto ids = run_measured({"tokenize", "--format", "ids", "-i", path}, dir);
    REQUIRE(ids.exit_code == 0);
    ids_rss = ids.peak_rss_kb;
    const auto lines = bktest::split_lines(ids.out);
    REQUIRE(lines.size() == 2);
    for (char c : lines[1]) tokens += c == ' ';
  }
  CHECK(count.out == fmt::format("4\n{}\n", tokens));
  auto jsonl = run_measured({"tokenize", "-i", path, "--offsets", "chars"}, dir);
  REQUIRE(jsonl.exit_code == 0);
  MESSAGE("tokenize, 32 MB line: --count " << mb(count.peak_rss_kb) << " MB, --format ids " << mb(ids_rss)
                                           << " MB, jsonl " << mb(jsonl.peak_rss_kb) << " MB (" << tokens << " tokens)");
  if (kMeasured) {
    CHECK(mb(count.peak_rss_kb) < 2 * 32 + 64);  // the line as read, and once more as a record
    CHECK(mb(ids_rss) < 10 * 32);
    CHECK(mb(jsonl.peak_rss_kb) < 24 * 32);  // its output alone is 8 times the line
  }
  const json last = json::parse(bktest::split_lines(jsonl.out)[1]);
  REQUIRE(last["ids"].size() == tokens);
  // Offsets into a line with accents are code points: the last token ends at the line's last one.
  CHECK(last["offsets"][tokens - 2][1] == code_points);
}

TEST_CASE("--max-line-bytes: a longer line is bad input naming its file, line and the flag, 0 is a usage error") {
  bktest::TempDir dir;
  bktest::write_file(dir / "in.txt", "short\n" + std::string(200, 'x') + "\nend\n");
  const std::string path = (dir / "in.txt").string();
  auto tokenize = run_bertkit({"tokenize", "--max-line-bytes", "100", "-i", path});
  CHECK(tokenize.exit_code == 3);
  CHECK(tokenize.err == "bertkit: error: " + path + ":2: line longer than the limit of 100 bytes (--max-line-bytes)\n");
  CHECK(tokenize.out == run_bertkit({"tokenize", "short"}).out);  // the record before it is written

  auto embed = run_bertkit({"embed", "-m", bktest::fixture_path("minilm-embed"), "--max-line-bytes", "100", "--on-error",
                            "skip", "-i", path});
  CHECK(embed.exit_code == 0);
  CHECK(bktest::split_lines(embed.out).size() == 3);  // the long line's row holds its error
  CHECK(embed.err.find(path + ":2: line longer than the limit of 100 bytes (--max-line-bytes) (skipped)") !=
        std::string::npos);
  CHECK(run_bertkit({"tokenize", "--max-line-bytes", "200", "-i", path}).exit_code == 0);

  // A line with no end stops the run at the limit (--on-error fail), instead of being read for ever.
  for (const std::vector<std::string>& args :
       {std::vector<std::string>{"tokenize"}, {"embed", "-m", bktest::fixture_path("minilm-embed")}}) {
    std::vector<std::string> full = args;
    for (const char* a : {"--max-line-bytes", "1000000", "-i", "/dev/zero"}) full.emplace_back(a);
    auto r = run_bertkit(full);
    CHECK(r.exit_code == 3);
    CHECK(r.err == "bertkit: error: /dev/zero:1: line longer than the limit of 1000000 bytes (--max-line-bytes)\n");
  }

  for (const char* bad : {"0", "-1", "4294967296"}) {
    CAPTURE(bad);
    auto r = run_bertkit({"tokenize", "--max-line-bytes", bad, "x"});
    CHECK(r.exit_code == 2);
    CHECK(r.err.find("--max-line-bytes") != std::string::npos);
  }
}

TEST_CASE("tokenize --count refuses padding, which would only pad the count") {
  auto r = run_bertkit({"tokenize", "--count", "--padding", "longest", "x"});
  CHECK(r.exit_code == 2);
  CHECK(r.err == "bertkit: error: --count counts each text's tokens: --padding longest would only add padding to them\n");
}
