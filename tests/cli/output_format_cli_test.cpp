// One rule for the output format of every command that writes records: --format, else the format -o's
// extension names, else the command's default; an extension that names no format of the command is a
// usage error naming the formats, and so is one that names another format than --format (issue 30).
#include "cli/task_cli_helpers.h"

#include <doctest/doctest.h>

#include <filesystem>
#include <string>
#include <vector>

using bktest::run_bertkit;
namespace fs = std::filesystem;

namespace {

std::string format_test_model() { return bktest::fixture_path("minilm-embed"); }

void check_format_refused(const std::vector<std::string>& args, const fs::path& out, const std::vector<std::string>& named) {
  auto r = run_bertkit(args);
  INFO(r.err);
  CHECK(r.exit_code == 2);
  CHECK(r.out.empty());
  CHECK(bktest::count_lines(r.err) == 1);
  for (const std::string& name : named) CHECK(r.err.find(name) != std::string::npos);
  CHECK_FALSE(fs::exists(out));
}

}  // namespace

TEST_CASE("output format: tokenize follows -o's extension as the model commands do") {
  bktest::TempDir dir;
  const fs::path tsv = dir / "tokens.TSV";
  REQUIRE(run_bertkit({"tokenize", "Hello world", "-o", tsv.string()}).exit_code == 0);
  CHECK(bktest::split_lines(bktest::read_file(tsv)).at(0) == "text\tids\ttokens\toffsets");
  const fs::path ndjson = dir / "tokens.ndjson";
  REQUIRE(run_bertkit({"tokenize", "Hello world", "-o", ndjson.string()}).exit_code == 0);
  CHECK(bktest::json_lines(bktest::read_file(ndjson)).at(0)["tokens"].size() == 4);
  // .txt names no format: refused, naming tokenize's formats; --format chooses one for any name.
  const fs::path txt = dir / "tokens.txt";
  check_format_refused({"tokenize", "Hello world", "-o", txt.string()}, txt, {".txt", "jsonl, tokens, ids, tsv", "--format"});
  REQUIRE(run_bertkit({"tokenize", "Hello world", "--format", "tokens", "-o", txt.string()}).exit_code == 0);
  CHECK(bktest::read_file(txt) == "[CLS] hello world [SEP]\n");
}

TEST_CASE("output format: unknown and JSON-document extensions are usage errors naming the formats") {
  bktest::TempDir dir;
  for (const auto& command : {std::vector<std::string>{"embed", "-m", format_test_model(), "hello"},
                              std::vector<std::string>{"classify", "-m", bktest::fixture_path("bert-cased-cls"), "hello"},
                              std::vector<std::string>{"tokenize", "hello"}}) {
    CAPTURE(command[0]);
    for (const char* name : {"out.txt", "out.parquet", "out.json"}) {
      CAPTURE(name);
      const fs::path out = dir / name;
      std::vector<std::string> args = command;
      args.insert(args.end(), {"-o", out.string()});
      check_format_refused(args, out, {"-o " + out.string(), "jsonl", "--format"});
    }
  }
  // .json: bertkit writes JSON lines, and says so.
  const fs::path json = dir / "out.json";
  auto r = run_bertkit({"embed", "-m", format_test_model(), "hello", "-o", json.string()});
  CHECK(r.err.find("JSON lines") != std::string::npos);
  CHECK(r.err.find(".jsonl") != std::string::npos);
  // A format of another command is named as such.
  const fs::path npy = dir / "out.npy";
  check_format_refused({"classify", "-m", bktest::fixture_path("bert-cased-cls"), "hello", "-o", npy.string()}, npy,
                {"not an output format of this command", "jsonl, tsv, csv"});
}

TEST_CASE("output format: an extension that names another format than --format is a usage error") {
  bktest::TempDir dir;
  const fs::path csv = dir / "out.csv", npy = dir / "out.npy", jsonl = dir / "out.jsonl";
  check_format_refused({"embed", "-m", format_test_model(), "hello", "--format", "jsonl", "-o", csv.string()}, csv,
                {"-o " + csv.string(), "csv", "--format is jsonl"});
  check_format_refused({"embed", "-m", format_test_model(), "hello", "--format", "npy", "-o", jsonl.string()}, jsonl, {"--format is npy"});
  check_format_refused({"classify", "-m", bktest::fixture_path("bert-cased-cls"), "hello", "--format", "csv", "-o", npy.string()},
                npy, {"npy", "--format is csv"});
  check_format_refused({"tokenize", "hello", "--format", "ids", "-o", csv.string()}, csv, {"--format is ids"});
  // The same format both ways, and --format with a name that names none, are fine.
  REQUIRE(run_bertkit({"embed", "-m", format_test_model(), "hello", "--format", "csv", "-o", csv.string()}).exit_code == 0);
  CHECK(bktest::read_file(csv).rfind("text,embedding,truncated\n", 0) == 0);
  const fs::path dat = dir / "vectors.dat";
  REQUIRE(run_bertkit({"embed", "-m", format_test_model(), "hello", "--format", "npy", "-o", dat.string()}).exit_code == 0);
  CHECK(bktest::read_file(dat).rfind("\x93NUMPY", 0) == 0);
}
