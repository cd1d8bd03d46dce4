// --resume: a run killed mid-way (or whose output file was cut) and then resumed gives exactly the bytes
// of one uninterrupted run, for every output format; a different command line is refused.
#include "shell_helpers.h"
#include "task_cli_helpers.h"

#include <doctest/doctest.h>
#include <fmt/format.h>

#include <cstdlib>
#include <filesystem>
#include <string>
#include <vector>

namespace {

namespace fs = std::filesystem;
using bktest::run_bertkit;
using bktest::shell_quote;

std::string command_line(const std::vector<std::string>& args) {
  std::string line = shell_quote(BERTKIT_BINARY);
  for (const std::string& a : args) line += " " + shell_quote(a);
  return line;
}

// The first `lines` lines of `input` fed on a FIFO, then bertkit is killed (SIGKILL) once its resume
// log records `records` finished records: what a crash leaves.
void run_killed(const bktest::TempDir& dir, const std::vector<std::string>& args, const fs::path& input,
                std::size_t lines, std::size_t records, const fs::path& log) {
  const fs::path fifo = dir / "fifo";
  fs::remove(fifo);
  const std::string script = fmt::format(
      "mkfifo {fifo}; {cmd} < {fifo} 2>/dev/null & pid=$!; exec 3>{fifo}; head -n {lines} {input} >&3; "
      "for i in $(seq 600); do grep -q '^{records} ' {log} 2>/dev/null && break; sleep 0.05; done; "
      "kill -9 $pid; wait $pid 2>/dev/null; exec 3>&-; grep -q '^{records} ' {log}",
      fmt::arg("fifo", shell_quote(fifo.string())), fmt::arg("cmd", command_line(args)), fmt::arg("lines", lines),
      fmt::arg("input", shell_quote(input.string())), fmt::arg("records", records),
      fmt::arg("log", shell_quote(log.string())));
  REQUIRE(std::system(("bash -c " + shell_quote(script)).c_str()) == 0);
}

// The first `n` lines of the English corpus.
std::string english_lines(std::size_t n) {
  const auto all = bktest::read_lines(bktest::shared("corpora/en_sst2_dev.txt"));
  std::string text;
  for (std::size_t i = 0; i < n && i < all.size(); ++i) text += all[i] + "\n";
  return text;
}

// `text`: the input (120 lines); empty: the English corpus's first 120 lines.
void check_resume(const std::vector<std::string>& command, const std::string& ext, std::size_t batch,
                  const std::string& text = "") {
  bktest::TempDir dir;
  const fs::path input = dir / "in.txt";
  bktest::write_file(input, text.empty() ? english_lines(120) : text);
  const fs::path out = dir / ("out." + ext), log = dir / ("out." + ext + ".resume");
  std::vector<std::string> args = command;
  args.insert(args.end(), {"--batch-size", std::to_string(batch), "-o", out.string()});

  // One uninterrupted run (reading stdin too, as the cut-off one does).
  auto whole = run_bertkit(args, bktest::read_file(input));
  INFO(whole.err);
  REQUIRE(whole.exit_code == 0);
  CHECK_FALSE(fs::exists(log));  // a completed run leaves no log
  const std::string expected = bktest::read_file(out);
  fs::remove(out);

  std::vector<std::string> resumed = args;
  resumed.push_back("--resume");
  auto resume = [&] {
    auto r = run_bertkit(resumed, bktest::read_file(input));
    INFO(r.err);
    REQUIRE(r.exit_code == 0);
    return r;
  };

  SUBCASE("killed mid-way") {
    run_killed(dir, args, input, 70, 64, log);
    REQUIRE(fs::file_size(out) < expected.size());
    auto r = resume();
    CHECK(r.err.find("finished records") != std::string::npos);
    CHECK(bktest::read_file(out) == expected);
    CHECK_FALSE(fs::exists(log));
  }
  SUBCASE("the output cut anywhere, or a partial record after the last checkpoint") {
    run_killed(dir, args, input, 70, 64, log);
    const std::string killed = bktest::read_file(out);
    const std::string killed_log = bktest::read_file(log);
    for (std::size_t cut : {killed.size(), killed.size() - 1, killed.size() / 2, std::size_t{3}, std::size_t{0}}) {
      CAPTURE(cut);
      bktest::write_file(out, killed.substr(0, cut));
      bktest::write_file(log, killed_log);
      resume();
      CHECK(bktest::read_file(out) == expected);
    }
    bktest::write_file(out, killed + "{\"text\": \"half a rec");
    bktest::write_file(log, killed_log);
    resume();
    CHECK(bktest::read_file(out) == expected);
  }
  SUBCASE("another command line is refused; --threads may differ") {
    run_killed(dir, args, input, 70, 64, log);
    std::vector<std::string> other = resumed;
    other.insert(other.begin() + 1, "--max-length");
    other.insert(other.begin() + 2, "33");
    auto r = run_bertkit(other, bktest::read_file(input));
    CHECK(r.exit_code == 2);
    CHECK(r.err.find("--resume continues the same command only") != std::string::npos);
    CHECK(r.err.find("out." + ext + ".resume") != std::string::npos);
    std::vector<std::string> threads = resumed;
    threads.insert(threads.begin(), {"--threads", "1"});
    auto t = run_bertkit(threads, bktest::read_file(input));
    INFO(t.err);
    CHECK(t.exit_code == 0);
    CHECK(bktest::read_file(out) == expected);
  }
  SUBCASE("nothing to resume: no output starts over; an output without its log is refused") {
    resume();
    CHECK(bktest::read_file(out) == expected);
    auto r = run_bertkit(resumed, bktest::read_file(input));
    CHECK(r.exit_code == 2);
    CHECK(r.err.find("completed") != std::string::npos);
  }
}

}  // namespace

TEST_CASE("resume: tokenize, killed and resumed, gives one run's bytes") {
  for (const char* format : {"jsonl", "ids", "tsv"}) {
    CAPTURE(format);
    check_resume({"tokenize", "--format", format}, format == std::string("jsonl") ? "jsonl" : "txt", 8);
  }
}

TEST_CASE("resume: embed, killed and resumed, gives one run's bytes in every format") {
  for (const char* format : {"jsonl", "csv", "tsv", "npy", "f32"}) {
    CAPTURE(format);
    check_resume({"embed", "-m", bktest::fixture_path("minilm-embed"), "--dtype", "int8"}, format, 8);
  }
}

TEST_CASE("resume: classify, csv") {
  check_resume({"classify", "-m", bktest::fixture_path("bert-cased-cls"), "--on-error", "skip"}, "csv", 16);
}

TEST_CASE("resume: --on-error skip's rows of failed records, before and after the checkpoint (issue 30, item 1)") {
  // Lines 10, 40, 66 and 100 are bad (invalid UTF-8 under --strict): each keeps its row, with its error.
  std::string text;
  const auto lines = bktest::split_lines(english_lines(120));
  for (std::size_t i = 0; i < lines.size(); ++i)
    text += (i == 9 || i == 39 || i == 65 || i == 99 ? "bad \xff " : "") + lines[i] + "\n";
  auto once = run_bertkit({"classify", "-m", bktest::fixture_path("bert-cased-cls"), "--strict", "--on-error", "skip", "--format", "csv"}, text);
  REQUIRE(once.exit_code == 0);
  const auto rows = bktest::split_lines(once.out);
  REQUIRE(rows.size() == 121);  // the header and a row per line
  CHECK(rows[10].find("<stdin>:10: invalid UTF-8") != std::string::npos);
  CHECK(rows[100].find("<stdin>:100: invalid UTF-8") != std::string::npos);
  for (const char* format : {"csv", "jsonl"}) {
    CAPTURE(format);
    check_resume({"classify", "-m", bktest::fixture_path("bert-cased-cls"), "--strict", "--on-error", "skip"}, format, 16, text);
  }
}

TEST_CASE("resume: refused where nothing is finished before the end, and for stdout") {
  bktest::TempDir dir;
  auto r = run_bertkit({"embed", "-m", bktest::fixture_path("minilm-embed"), "--precision", "int8", "-o",
                        (dir / "e.jsonl").string(), "--resume", "a", "b"});
  CHECK(r.exit_code == 2);
  CHECK(r.err.find("--resume: --precision without --calibration") != std::string::npos);
  auto s = run_bertkit({"embed", "-m", bktest::fixture_path("minilm-embed"), "--resume", "a"});
  CHECK(s.exit_code == 2);
  CHECK(s.err.find("--resume needs -o FILE") != std::string::npos);
}
