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
