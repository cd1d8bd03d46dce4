// How the command line is read, whatever the subcommand: texts and string values arrive as typed,
// numbers are range-checked, unknown names and usage errors are reported alike (issue 19).
#include "task_cli_helpers.h"

#include <doctest/doctest.h>
#include <nlohmann/json.hpp>

#include <fcntl.h>
#include <signal.h>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <filesystem>
#include <regex>
#include <string>
#include <thread>
#include <vector>

extern char** environ;

using bktest::run_bertkit;
using nlohmann::json;

namespace {

// The texts tokenize received, one per record.
std::vector<std::string> tokenized_texts(const std::vector<std::string>& args) {
  std::vector<std::string> texts;
  for (const json& record : bktest::run_jsonl(args)) texts.push_back(record["text"].get<std::string>());
  return texts;
}

}  // namespace

TEST_CASE("arguments: texts in square brackets, with commas or empty are one literal text each (issue 19, item 1)") {
  const std::vector<std::string> odd = {"[hello, world]", "[citation needed]", "[a,b]", "[ x ]", "[]", "a,b", "[", "]"};
  std::vector<std::string> args = {"tokenize"};
  args.insert(args.end(), odd.begin(), odd.end());
  CHECK(tokenized_texts(args) == odd);
  // After `--` as before it.
  args = {"tokenize", "--"};
  args.insert(args.end(), odd.begin(), odd.end());
  CHECK(tokenized_texts(args) == odd);
  // A file name in brackets is one file.
  bktest::TempDir dir;
  bktest::write_file(dir / "[a,b].txt", "from the file\n");
  CHECK(tokenized_texts({"tokenize", "-i", (dir / "[a,b].txt").string()}) == std::vector<std::string>{"from the file"});
}

TEST_CASE("arguments: [MASK] alone, --query and string options in brackets reach the command as typed (issue 19, item 1)") {
  const std::string mlm = bktest::fixture_path("bert-uncased-mlm");
  auto masked = bktest::run_jsonl({"fill-mask", "-m", mlm, "--top-k", "1", "[MASK]"});
  REQUIRE(masked.size() == 1);
  CHECK(masked[0]["text"] == "[MASK]");

  const std::string embedder = bktest::fixture_path("minilm-embed");
  bktest::TempDir dir;
  bktest::write_file(dir / "corpus.txt", "breaking news\nweather\n");
  auto found = bktest::run_jsonl({"similarity", "-m", embedder, "--corpus", (dir / "corpus.txt").string(), "--top-k", "1",
                                  "--query", "[breaking, news]", "--query=[a,b]", "--query", "[]"});
  REQUIRE(found.size() == 3);
  CHECK(found[0]["text"] == "[breaking, news]");
  CHECK(found[1]["text"] == "[a,b]");
  CHECK(found[2]["text"] == "[]");

  auto pair = bktest::run_jsonl({"similarity", "-m", embedder, "[a,b]", "c"});
  REQUIRE(pair.size() == 1);
  CHECK(pair[0]["text"] == "[a,b]");
  CHECK(pair[0]["text_pair"] == "c");

  // A string option's value keeps its brackets: the prefix is part of the embedded text.
  auto with_prefix = bktest::run_jsonl({"embed", "-m", embedder, "--prefix", "[q] ", "x"});
  auto typed = bktest::run_jsonl({"embed", "-m", embedder, "[q] x"});
  REQUIRE(with_prefix.size() == 1);
  REQUIRE(typed.size() == 1);
  CHECK(with_prefix[0]["embedding"] == typed[0]["embedding"]);
}

TEST_CASE("arguments: every numeric flag of every subcommand refuses a negative value, naming itself and its range (issue 19, item 2)") {
  auto top = run_bertkit({"--help"});
  REQUIRE(top.exit_code == 0);
  const std::regex subcommand_row(R"(\n  ([a-z][a-z-]*)\s)");
  const std::string listed = top.out.substr(top.out.find("Subcommands:"));
  // A numeric flag's --help row: "  --top-k UINT:1 to 1048576=5 ..." (or "-x,--flag INT ...").
  const std::regex numeric_row(R"(\n\s+(?:-[a-zA-Z],)?(--[a-z][a-z0-9-]*) (?:INT|UINT|FLOAT)\b)");
  std::vector<std::vector<std::string>> calls = {{"--threads", "-1", "tokenize", "x"}};
  for (std::sregex_iterator it(listed.begin(), listed.end(), subcommand_row), end; it != end; ++it) {
    const std::string command = (*it)[1];
    auto help = run_bertkit({command, "--help"});
    REQUIRE(help.exit_code == 0);
    for (std::sregex_iterator flag(help.out.begin(), help.out.end(), numeric_row); flag != end; ++flag)
      for (const char* value : {"-1", "0x10", " 5", "1e400"})
        calls.push_back({command, (*flag)[1], value});
  }
  CHECK(calls.size() > 20);  // the help rows were found
  for (const auto& args : calls) {
    CAPTURE(args[0]);
    CAPTURE(args[1]);
    CAPTURE(args[2]);
    auto r = run_bertkit(args);
    CHECK(r.exit_code == 2);
    CHECK(r.out.empty());
    const std::string& flag = args[0] == "--threads" ? args[0] : args[1];
    CHECK(r.err.find(flag) != std::string::npos);
    CHECK(r.err.find(" to ") != std::string::npos);  // the allowed range
    CHECK(r.err.find("18446744073709551615") == std::string::npos);
  }
}

TEST_CASE("arguments: fill-mask and similarity --top-k -1 with a model stop before anything runs (issue 19, item 2)") {
  auto masked = run_bertkit({"fill-mask", "-m", bktest::fixture_path("bert-uncased-mlm"), "--top-k", "-1", "--dry-run"});
  CHECK(masked.exit_code == 2);
  CHECK(masked.out.empty());
  CHECK(masked.err.find("--top-k") != std::string::npos);
  CHECK(masked.err.find("1 to ") != std::string::npos);
  auto search = run_bertkit({"similarity", "-m", bktest::fixture_path("minilm-embed"), "--top-k", "-1", "a", "b"});
  CHECK(search.exit_code == 2);
  CHECK(search.err.find("--top-k") != std::string::npos);
  auto stride = run_bertkit({"tokenize", "--max-length", "8", "--stride", "-1", "one two three"});
  CHECK(stride.exit_code == 2);
  CHECK(stride.err.find("--stride") != std::string::npos);
  CHECK(stride.err.find("0 to ") != std::string::npos);
}

TEST_CASE("arguments: an unknown command is named, with the nearest command when it looks like a typo (issue 19, item 13)") {
  struct Case {
    std::vector<std::string> args;
    std::string expected;
  };
  for (const Case& c : std::vector<Case>{
           {{"embd", "-m", "x", "hi"}, "unknown command 'embd'; did you mean 'embed'?"},
           {{"tokenise", "x"}, "unknown command 'tokenise'; did you mean 'tokenize'?"},
           {{"fillmask"}, "unknown command 'fillmask'; did you mean 'fill-mask'?"},
           {{"-q", "clasify", "x"}, "unknown command 'clasify'; did you mean 'classify'?"},
           {{"help", "simlarity"}, "unknown command 'simlarity'; did you mean 'similarity'?"},
           {{"launch"}, "unknown command 'launch' (the commands are tokenize, embed,"},
           {{}, "give a command: tokenize, embed,"}}) {
    CAPTURE(c.expected);
    auto r = run_bertkit(c.args);
    CHECK(r.exit_code == 2);
    CHECK(r.out.empty());
    CHECK(r.err.find("bertkit: error: " + c.expected) == 0);
    CHECK(bktest::count_lines(r.err) == 1);
    CHECK(r.err.find("subcommand is required") == std::string::npos);
  }
}

TEST_CASE("arguments: `bertkit help COMMAND` is `bertkit COMMAND --help`, `bertkit help` is `bertkit --help` (issue 19, item 13)") {
  for (const char* command : {"embed", "tokenize", "fill-mask", "convert"}) {
    CAPTURE(command);
    auto help = run_bertkit({"help", command});
    auto flag = run_bertkit({command, "--help"});
    CHECK(help.exit_code == 0);
    CHECK(!help.out.empty());
    CHECK(help.out == flag.out);
  }
  auto top = run_bertkit({"help"});
  CHECK(top.exit_code == 0);
  CHECK(top.out == run_bertkit({"--help"}).out);
}

TEST_CASE("arguments: every usage error CLI11 finds is one line 'bertkit: error: ...', exit 2, as bertkit's own are (issue 19, item 20)") {
  struct Case {
    std::vector<std::string> args;
    std::string names;  // what the line must name
  };
  for (const Case& c : std::vector<Case>{
           {{"tokenize", "--bogus"}, "--bogus"},
           {{"embed", "x"}, "--model"},
           {{"tokenize", "--stride", "-1", "x"}, "--stride"},
           {{"embed", "-m"}, "--model"},
           {{"convert"}, "SRC"},
           {{"bench", "--format", "xml"}, "--format"},
           {{"--threads", "x", "tokenize"}, "--threads"},
           {{"--bogus"}, "--bogus"}}) {
    CAPTURE(c.args);
    auto r = run_bertkit(c.args);
    CHECK(r.exit_code == 2);
    const auto lines = bktest::split_lines(r.err);
    REQUIRE(lines.size() == 1);
    CHECK(lines[0].starts_with("bertkit: error: "));
    CHECK(lines[0].find(c.names) != std::string::npos);
  }
}

TEST_CASE("arguments: Ctrl-C with stderr in a file writes one line, no empty line before it (issue 19, item 20)") {
  bktest::TempDir dir;
  const std::string out = (dir / "out").string(), err = (dir / "err").string();
  int feed[2];
  REQUIRE(::pipe(feed) == 0);
  posix_spawn_file_actions_t files;
  posix_spawn_file_actions_init(&files);
  posix_spawn_file_actions_adddup2(&files, feed[0], 0);
  posix_spawn_file_actions_addclose(&files, feed[1]);
  posix_spawn_file_actions_addopen(&files, 1, out.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
  posix_spawn_file_actions_addopen(&files, 2, err.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
  std::vector<std::string> args = {BERTKIT_BINARY, "tokenize", "--format", "tokens"};
  std::vector<char*> argv;
  for (auto& a : args) argv.push_back(a.data());
  argv.push_back(nullptr);
  pid_t pid = 0;
  REQUIRE(posix_spawn(&pid, BERTKIT_BINARY, &files, nullptr, argv.data(), environ) == 0);
  posix_spawn_file_actions_destroy(&files);
  ::close(feed[0]);
  // A line read and written: the handler is installed and bertkit waits for the next line.
  REQUIRE(::write(feed[1], "hello\n", 6) == 6);
  std::error_code ec;
  for (int i = 0; i < 600 && std::filesystem::file_size(out, ec) == 0; ++i)
    std::this_thread::sleep_for(std::chrono::milliseconds(20));
  REQUIRE(std::filesystem::file_size(out, ec) > 0);
  ::kill(pid, SIGINT);
  int status = 0;
  REQUIRE(::waitpid(pid, &status, 0) == pid);
  ::close(feed[1]);
  REQUIRE(WIFEXITED(status));
  CHECK(WEXITSTATUS(status) == 130);
  CHECK(bktest::read_file(err) == "bertkit: interrupted\n");
}

TEST_CASE("arguments: contradicting switches, --column without columns and an empty --targets are usage errors (issue 19, item 22)") {
  const std::string embedder = bktest::fixture_path("minilm-embed");
  const std::string mlm = bktest::fixture_path("bert-uncased-mlm");
  bktest::TempDir dir;
  bktest::write_file(dir / "lines.txt", "one\ntwo\n");
  bktest::write_file(dir / "records.jsonl", "{\"text\":\"one\"}\n");
  struct Case {
    std::vector<std::string> args;
    std::string input;
    std::string names;
  };
  for (const Case& c : std::vector<Case>{
           {{"embed", "-m", embedder, "--normalize", "--no-normalize", "x"}, "", "--no-normalize"},
           {{"embed", "-m", embedder, "--no-normalize", "x", "--normalize"}, "", "--no-normalize"},
           {{"tokenize", "--lowercase", "--no-lowercase", "x"}, "", "--no-lowercase"},
           {{"tokenize", "--strip-accents", "--no-strip-accents", "x"}, "", "--no-strip-accents"},
           {{"tokenize", "--column", "text", "-i", (dir / "lines.txt").string()}, "", "--column"},
           {{"tokenize", "--column", "text"}, "one\n", "--column"},
           {{"embed", "-m", embedder, "--column", "text", "-i", (dir / "lines.txt").string()}, "", "--column"},
           {{"classify", "-m", bktest::fixture_path("bert-cased-cls"), "--pair-column", "b", "-i",
             (dir / "records.jsonl").string()},
            "",
            "--pair-column"},
           {{"fill-mask", "-m", mlm, "--targets", "", "a [MASK] b"}, "", "--targets"},
           {{"fill-mask", "-m", mlm, "--targets", " , ", "a [MASK] b"}, "", "--targets"}}) {
    CAPTURE(c.args);
    auto r = run_bertkit(c.args, c.input);
    CHECK(r.exit_code == 2);
    CHECK(r.out.empty());
    CHECK(r.err.starts_with("bertkit: error: "));
    CHECK(r.err.find(c.names) != std::string::npos);
  }
  // qa's question and context columns are for tables only: question<TAB>context lines still work.
  auto qa = bktest::run_jsonl({"qa", "-m", bktest::fixture_path("bert-uncased-qa")}, "who?\tthe cat sat\n");
  CHECK(qa.size() == 1);
}

TEST_CASE("arguments: convert --help names its arguments SRC and DST (issue 19, item 22)") {
  auto help = run_bertkit({"convert", "--help"});
  REQUIRE(help.exit_code == 0);
  CHECK(help.out.find("SRC [DST]") != std::string::npos);
  CHECK(help.out.find("paths") == std::string::npos);
  CHECK(help.out.find("(1x)") == std::string::npos);
}

TEST_CASE("arguments: a mistyped flag is named first, with the nearest flag, in every subcommand (issue 30)") {
  auto top = run_bertkit({"--help"});
  REQUIRE(top.exit_code == 0);
  for (const char* command : {"tokenize", "embed", "similarity", "classify", "fill-mask", "ner", "rerank", "qa",
                              "convert", "download", "info", "bench"}) {
    CAPTURE(command);
    REQUIRE(top.out.find(std::string("  ") + command) != std::string::npos);
    // --model is required by the model commands: the typo, not the missing flag, is the error.
    auto r = run_bertkit({command, "--modle", "x"});
    CHECK(r.exit_code == 2);
    CHECK(r.out.empty());
    CHECK(bktest::count_lines(r.err) == 1);
    CHECK(r.err.find(std::string("bertkit: error: ") + command + ": unknown option '--modle'") == 0);
    CHECK(r.err.find("is required") == std::string::npos);
    // A global flag is a candidate too, and a flag given with '=' is named without its value.
    r = run_bertkit({command, "--quite=1"});
    CHECK(r.err.find("unknown option '--quite'; did you mean '--quiet'?") != std::string::npos);
  }
  for (const char* command : {"tokenize", "embed", "classify", "info", "bench"}) {
    CAPTURE(command);
    auto r = run_bertkit({command, "--modle", "x"});
    CHECK(r.err.find("did you mean '--model'?") != std::string::npos);
  }
  // Far from every flag: no guess.
  auto r = run_bertkit({"embed", "-m", "x", "--xyzzy"});
  CHECK(r.err == "bertkit: error: embed: unknown option '--xyzzy' (see bertkit embed --help)\n");
}
