// "A field never dropped", end to end through the binary: each input record comes back in the
// output exactly as it was written, whatever the input's bytes and whatever the output format.
#include "support.h"
#include "task_cli_helpers.h"

#include <doctest/doctest.h>

#include <string>

namespace {
using bktest::run_bertkit;
using namespace std::string_literals;

const std::string kClassifier = "distilbert-uncased-cls";
}  // namespace

TEST_CASE("input echo: a NUL byte in a JSONL line is invalid JSON naming file and line, not the end of the line") {
  const std::string model = bktest::fixture_path(kClassifier);
  for (const std::string& line : {"{\"id\":1,\"text\":\"a\"}\0{\"id\":2,\"text\":\"b\"}\n"s,
                                  "{\"id\":1,\"text\":\"a\0b\"}\n"s}) {
    auto r = run_bertkit({"classify", "-m", model, "--jsonl"}, line);
    CHECK(r.exit_code == 3);
    CHECK(r.out.empty());
    CHECK(r.err.find("<stdin>:1: invalid JSON at byte ") != std::string::npos);
  }
}

TEST_CASE("input echo: JSONL members come back as written, numbers with every digit; a name given twice is refused") {
  bktest::TempDir dir;
  const std::string model = bktest::fixture_path(kClassifier);
  const std::string members =
      R"({"id":12345678901234567890123,"e":1e2,"f":-0.10,"text":"caf\u00e9 \"ok\"","meta":{"a":[1, 2.50]},"z":null)";
  bktest::write_file(dir / "in.jsonl", members + "}\n");
  for (const std::vector<std::string>& command :
       {std::vector<std::string>{"classify", "-m", model}, {"embed", "-m", bktest::fixture_path("minilm-embed")},
        {"tokenize", "-m", model, "--format", "jsonl"}}) {
    auto args = command;
    args.insert(args.end(), {"-i", (dir / "in.jsonl").string()});
    auto r = run_bertkit(args);
    INFO(r.err);
    REQUIRE(r.exit_code == 0);
    CHECK(r.out.starts_with(members + ","));
  }

  bktest::write_file(dir / "twice.jsonl", "{\"text\":\"a\"}\n{\"id\":1,\"id\":2,\"text\":\"b\"}\n");
  auto twice = run_bertkit({"classify", "-m", model, "-i", (dir / "twice.jsonl").string()});
  CHECK(twice.exit_code == 3);
  CHECK(twice.err.find("twice.jsonl:2: the name \"id\" is given twice") != std::string::npos);
}
