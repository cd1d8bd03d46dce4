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
  check_refused({"tokenize", "-m", "", "a"}, {"-m/--model"});
  check_refused({"fill-mask", "-m", bktest::fixture_path("bert-uncased-mlm"), "--targets", "", "a [MASK]."}, {"--targets"});
  // Where an empty value has a meaning of its own it is taken: --prefix "" is no prefix.
  auto r = run_bertkit({"embed", "-m", cls, "--prefix", "", "a"});
  CHECK_MESSAGE(r.exit_code == 0, r.err);
}

TEST_CASE("input shape flags apply to one kind of input: --column/--pair-column CSV/TSV, --field/--pair-field "
          "JSONL, --pairs lines and arguments, any other is a usage error naming it, in every command") {
  bktest::TempDir dir;
  const std::string csv = (dir / "nli.csv").string(), jsonl = (dir / "nli.jsonl").string(),
                    txt = (dir / "nli.txt").string();
  bktest::write_file(csv, "premise,hypothesis\nA man eats.,Someone is eating.\n");
  bktest::write_file(jsonl, "{\"text\":\"A man eats.\",\"hypothesis\":\"Someone is eating.\"}\n");
  bktest::write_file(txt, "A man eats.\tSomeone is eating.\n");
  const std::string cls = bktest::fixture_path("electra-cls");
  const std::vector<std::vector<std::string>> commands = {
      {"classify", "-m", cls}, {"embed", "-m", cls}, {"similarity", "-m", cls}, {"tokenize"}};
  for (const auto& command : commands) {
    const auto with = [&](std::vector<std::string> extra) {
      std::vector<std::string> args = command;
      args.insert(args.end(), extra.begin(), extra.end());
      return args;
    };
    check_refused(with({"-i", csv, "--column", "premise", "--pair-field", "hypothesis"}), {"--pair-field", "CSV"});
    check_refused(with({"-i", csv, "--column", "premise", "--pairs"}), {"--pairs"});
    check_refused(with({"-i", csv, "--field", "premise"}), {"--field"});
    check_refused(with({"-i", jsonl, "--pairs"}), {"--pairs", "JSONL"});
    check_refused(with({"-i", jsonl, "--pair-column", "hypothesis"}), {"--pair-column"});
    check_refused(with({"-i", txt, "--pair-field", "hypothesis"}), {"--pair-field", "plain text"});
    check_refused(with({"-i", txt, "--field", "text", "--column", "text"}), {"--field", "--column"});
    check_refused(with({"--pair-field", "hypothesis", "A man eats.", "Someone is eating."}), {"--pair-field"});
    check_refused(with({"--field", "text", "A man eats."}), {"--field"});
  }
  // --dry-run, which reads no input, refuses them too.
  check_refused({"classify", "-m", cls, "-i", csv, "--pair-field", "hypothesis", "--dry-run"}, {"--pair-field"});
  check_refused({"embed", "-m", cls, "--pairs", "-i", jsonl, "--dry-run"}, {"--pairs"});
  // The same flags where they apply: the pair is scored.
  const auto by_column = bktest::run_jsonl({"classify", "-m", cls, "-i", csv, "--column", "premise", "--pair-column", "hypothesis"});
  const auto by_field = bktest::run_jsonl({"classify", "-m", cls, "-i", jsonl, "--pair-field", "hypothesis"});
  const auto by_line = bktest::run_jsonl({"classify", "-m", cls, "-i", txt, "--pairs"});
  const auto single = bktest::run_jsonl({"classify", "-m", cls, "A man eats."});
  CHECK(by_column[0].at("score") == by_field[0].at("score"));
  CHECK(by_column[0].at("score") == by_line[0].at("score"));
  CHECK(by_column[0].at("score") != single[0].at("score"));
  // Commands whose own defaults name a column or field (qa's question and context) refuse the same way.
  check_refused({"qa", "-m", bktest::fixture_path("bert-uncased-qa"), "-i", jsonl, "--pairs"}, {"--pairs"});
  check_refused({"rerank", "-m", bktest::fixture_path("bert-chinese-cross"), "-i", csv, "--field", "premise"}, {"--field"});
  check_refused({"ner", "-m", bktest::models2_path("bert-cased-ner"), "-i", csv, "--field", "premise"}, {"--field"});
  check_refused({"fill-mask", "-m", bktest::fixture_path("bert-uncased-mlm"), "-i", jsonl, "--column", "text"}, {"--column"});
}

TEST_CASE("--compat python applies to WordPiece and byte-level BPE tokenizers: a Unigram one is a usage error "
          "naming its kind, in tokenize and the model commands, --dry-run included") {
  const std::string m = bktest::models2_path("camembert-cls");
  check_refused({"tokenize", "-m", m, "--compat", "python", "a"}, {"--compat python", "Unigram"});
  check_refused({"classify", "-m", m, "--compat", "python", "a"}, {"--compat python", "Unigram"});
  check_refused({"classify", "-m", m, "--compat", "python", "--dry-run"}, {"--compat python", "Unigram"});
  check_refused({"embed", "-m", m, "--compat", "python", "a"}, {"--compat python", "Unigram"});
  // WordPiece and byte-level BPE take it, and --dry-run says which slow tokenizer.
  auto bert = run_bertkit({"classify", "-m", bktest::fixture_path("electra-cls"), "--compat", "python", "--dry-run"});
  CHECK_MESSAGE(bert.exit_code == 0, bert.err);
  CHECK(bert.out.find("python (slow BertTokenizer)") != std::string::npos);
  auto roberta = run_bertkit({"ner", "-m", bktest::models2_path("roberta-ner"), "--compat", "python", "--dry-run"});
  CHECK_MESSAGE(roberta.exit_code == 0, roberta.err);
  CHECK(roberta.out.find("python (slow RobertaTokenizer") != std::string::npos);
}
