// The rules every flag follows, end to end through the binary: a flag that cannot apply to the input or
// to the other flags given is a usage error naming it (exit 2), never silently ignored, and a value given
// empty is never read as no value.
#include "cli/task_cli_helpers.h"

#include <doctest/doctest.h>

#include <algorithm>
#include <string>
#include <vector>

using bktest::run_bertkit;

namespace {

// Requires a usage error (exit 2, one `bertkit: error:` line) whose message names every one of `flags`.
void check_refused(const std::vector<std::string>& args, const std::vector<std::string>& flags,
                   const std::string& input = "") {
  auto r = run_bertkit(args, input);
  std::string command;
  for (const std::string& a : args) command += a + ' ';
  INFO(command);
  INFO(r.err);
  CHECK(r.exit_code == 2);
  CHECK(r.out.empty());
  CHECK(r.err.starts_with("bertkit: error: "));
  CHECK(std::count(r.err.begin(), r.err.end(), '\n') == 1);
  for (const std::string& flag : flags) CHECK_MESSAGE(r.err.find(flag) != std::string::npos, flag);
}

}  // namespace

TEST_CASE("flags given an empty value are usage errors naming the flag, not the flag's absence") {
  const std::string qa = bktest::fixture_path("bert-uncased-qa");
  const std::string cls = bktest::fixture_path("electra-cls");
  check_refused({"qa", "-m", qa, "--question", "", "--context", "The book by Ada."}, {"--question"});
  check_refused({"qa", "-m", qa, "--question", "Who?", "--context", ""}, {"--context"});
  check_refused({"qa", "-m", qa, "--question", "Who?", "--context-file", ""}, {"--context-file"});
  check_refused({"similarity", "-m", cls, "--query", "", "a", "b"}, {"--query"});
  check_refused({"rerank", "-m", cls, "--query", "", "a"}, {"--query"});
  check_refused({"classify", "-m", cls, "--field", "", "--jsonl"}, {"--field"}, "{\"text\":\"a\"}\n");
  check_refused({"classify", "-m", cls, "--column", "", "--csv"}, {"--column"}, "text\na\n");
  check_refused({"tokenize", "-m", "", "a"}, {"--model"});
  check_refused({"fill-mask", "-m", bktest::fixture_path("bert-uncased-mlm"), "--targets", "", "a [MASK]."}, {"--targets"});
  // Where an empty value has a meaning of its own it is taken: --prefix "" is no prefix.
  auto r = run_bertkit({"embed", "-m", cls, "--prefix", "", "a"});
  CHECK_MESSAGE(r.exit_code == 0, r.err);
}
