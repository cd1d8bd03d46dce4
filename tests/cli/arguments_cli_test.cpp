// How the command line is read, whatever the subcommand: texts and string values arrive as typed,
// numbers are range-checked, unknown names and usage errors are reported alike (issue 19).
#include "task_cli_helpers.h"

#include <doctest/doctest.h>
#include <nlohmann/json.hpp>

#include <string>
#include <vector>

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
