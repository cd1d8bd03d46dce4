// The user's files and fields are never altered or lost (issue 19): an output that is one of the
// inputs is refused before it is opened (item 8); input fields are never overwritten by result fields
// (item 9); vector rows stay aligned with input records when bad ones are skipped (item 10); TSV output
// escapes instead of quoting, table input keeps its columns in JSONL, output extensions are checked
// (item 21).
#include "task_cli_helpers.h"

#include <doctest/doctest.h>
#include <nlohmann/json.hpp>

#include <cmath>
#include <cstring>
#include <filesystem>
#include <string>
#include <vector>

using bktest::run_bertkit;
using nlohmann::json;
namespace fs = std::filesystem;

namespace {

std::string minilm() { return bktest::fixture_path("minilm-embed"); }

}  // namespace

TEST_CASE("an output that is one of the inputs is refused before it is opened (issue 19, item 8)") {
  bktest::TempDir dir;
  const fs::path in = dir.path() / "in.txt";
  const std::string text = "hello world\nsecond line\n";
  bktest::write_file(in, text);
  fs::create_symlink(in, dir.path() / "link.txt");
  fs::create_hard_link(in, dir.path() / "hard.txt");
  const fs::path csv = dir.path() / "in.csv";
  const std::string table = "text,id\nhello,1\n";
  bktest::write_file(csv, table);

  struct Case {
    std::vector<std::string> args;
    fs::path victim;
    std::string contents;
  };
  const std::string same = (dir.path() / "." / "in.txt").string();
  const std::vector<Case> cases = {
      {{"tokenize", "-i", in.string(), "-o", in.string()}, in, text},
      {{"tokenize", "-i", in.string(), "-o", same}, in, text},
      {{"tokenize", "-i", (dir.path() / "link.txt").string(), "-o", in.string()}, in, text},
      {{"tokenize", "-i", in.string(), "-o", (dir.path() / "hard.txt").string()}, in, text},
      {{"embed", "-m", minilm(), "-i", (dir.path() / "other.txt").string(), "-i", in.string(), "--format", "npy", "-o",
        (dir.path() / "link.txt").string()},
       in, text},
      {{"embed", "-m", minilm(), "-i", csv.string(), "-o", csv.string()}, csv, table},
      {{"similarity", "-m", minilm(), "--query", "hello", "--corpus", in.string(), "-o", same}, in, text},
  };
  bktest::write_file(dir.path() / "other.txt", "other\n");
  for (const Case& c : cases) {
    auto r = run_bertkit(c.args);
    INFO(c.args[0], " ", r.err);
    CHECK(r.exit_code == 2);
    CHECK(bktest::split_lines(r.err).size() == 1);
    CHECK(r.err.find("is the input") != std::string::npos);
    CHECK(bktest::read_file(c.victim) == c.contents);
  }
  // A new output file, or one that is not an input, is written as before.
  auto r = run_bertkit({"tokenize", "-i", in.string(), "-o", (dir.path() / "out.jsonl").string()});
  CHECK(r.exit_code == 0);
  CHECK(bktest::count_lines(bktest::read_file(dir.path() / "out.jsonl")) == 2);
}
