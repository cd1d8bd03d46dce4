// TSV input is read literally, as cut, awk -F'\t' and pandas read it (issue 30, item 1): a backslash
// in a field is a backslash, for the model and in the echo; --tsv-escapes reads bertkit's own TSV
// output back. Each command's results from the TSV equal its results from the same strings as JSONL.
#include "task_cli_helpers.h"

#include <doctest/doctest.h>

#include <string>
#include <vector>

namespace {

namespace fs = std::filesystem;
using bktest::run_bertkit;
using bktest::with;
using nlohmann::json;

// Backslash sequences a TSV reader that unescaped would turn into a newline, a tab, a CR, one backslash.
const std::vector<std::string> kLiteralTexts = {"C:\\new\\table is here", "a\\\\b and \\r then \\t", "plain words"};

struct Command {
  std::string name;
  std::vector<std::string> args;  // model and task flags
  std::vector<std::string> tsv;   // the TSV's columns (the first holds kLiteralTexts)
  std::vector<std::string> tsv_flags;    // the flags naming them
  std::vector<std::string> jsonl_flags;  // the flags naming the same fields in JSONL
  std::string second;             // the second column's values: a text (with a backslash) or ""
};

// The TSV (header + rows) and the same records as JSONL.
void write_inputs(const Command& c, const fs::path& tsv, const fs::path& jsonl) {
  std::string t = "id";
  for (const std::string& column : c.tsv) t += "\t" + column;
  t += "\n";
  std::string j;
  for (std::size_t i = 0; i < kLiteralTexts.size(); ++i) {
    std::string text = kLiteralTexts[i];
    if (c.name == "fill-mask") text += " [MASK].";
    json record = {{"id", std::to_string(i)}, {c.tsv[0], text}};
    t += std::to_string(i) + "\t" + text;
    if (c.tsv.size() > 1) {
      record[c.tsv[1]] = c.second;
      t += "\t" + c.second;
    }
    t += "\n";
    j += record.dump() + "\n";
  }
  bktest::write_file(tsv, t);
  bktest::write_file(jsonl, j);
}

}  // namespace

TEST_CASE("TSV fields are literal for every model command and tokenize: echoed byte for byte, the model sees the backslashes (issue 30, item 1)") {
  const std::string minilm = bktest::fixture_path("minilm-embed");
  const std::vector<Command> commands = {
      {"embed", {"embed", "-m", minilm}, {"text"}, {"--column", "text"}, {}, ""},
      {"classify", {"classify", "-m", bktest::fixture_path("distilbert-uncased-cls")}, {"text"}, {"--column", "text"}, {}, ""},
      {"ner", {"ner", "-m", bktest::models2_path("bert-cased-ner")}, {"text"}, {"--column", "text"}, {}, ""},
      {"fill-mask", {"fill-mask", "-m", bktest::fixture_path("bert-uncased-mlm")}, {"text"}, {"--column", "text"}, {}, ""},
      {"qa", {"qa", "-m", bktest::fixture_path("bert-uncased-qa")}, {"question", "context"}, {}, {}, "It is in C:\\new\\table."},
      {"similarity", {"similarity", "-m", minilm}, {"text", "other"}, {"--column", "text", "--pair-column", "other"},
       {"--field", "text", "--pair-field", "other"}, "D:\\x\\n"},
      {"rerank", {"rerank", "-m", bktest::fixture_path("bert-chinese-cross")}, {"query", "document"}, {},
       {"--field", "query", "--pair-field", "document"}, "the \\n document"},
      {"tokenize", {"tokenize"}, {"text"}, {"--column", "text"}, {}, ""},
  };
  bktest::TempDir dir;
  for (const Command& c : commands) {
    CAPTURE(c.name);
    const fs::path tsv = dir / (c.name + ".tsv"), jsonl = dir / (c.name + ".jsonl");
    write_inputs(c, tsv, jsonl);
    const std::vector<std::string> tsv_args = with(c.args, with(c.tsv_flags, {"-i", tsv.string()}));
    const auto from_tsv = bktest::run_jsonl(tsv_args);
    const auto from_jsonl = bktest::run_jsonl(with(c.args, with(c.jsonl_flags, {"-i", jsonl.string()})));
    REQUIRE(from_tsv.size() == kLiteralTexts.size());
    REQUIRE(from_jsonl.size() == kLiteralTexts.size());
    for (std::size_t i = 0; i < kLiteralTexts.size(); ++i) {
      CAPTURE(i);
      CHECK(from_tsv[i].at(c.tsv[0]).get<std::string>().starts_with(kLiteralTexts[i]));
      CHECK(from_tsv[i] == from_jsonl[i]);  // the same results as from the literal strings
    }
    if (c.name == "tokenize") continue;  // its TSV output is its own layout
    // TSV in, TSV out: each row starts with its input line, byte for byte.
    auto out = run_bertkit(with(tsv_args, {"--format", "tsv"}));
    INFO(out.err);
    REQUIRE(out.exit_code == 0);
    const auto in_lines = bktest::split_lines(bktest::read_file(tsv));
    const auto out_lines = bktest::split_lines(out.out);
    REQUIRE(out_lines.size() == in_lines.size());
    for (const std::string& line : out_lines) {
      bool found = false;
      for (const std::string& in : in_lines) found = found || line.starts_with(in + "\t");
      CHECK_MESSAGE(found, line);
    }
  }
}

TEST_CASE("tokenize reads a TSV field's backslashes as backslashes, as Hugging Face is given them (issue 30, item 1)") {
  bktest::TempDir dir;
  bktest::write_file(dir / "in.tsv", "text\nC:\\new\\table\n");
  const auto tsv = bktest::run_jsonl({"tokenize", "-i", (dir / "in.tsv").string()});
  const auto arg = bktest::run_jsonl({"tokenize", "C:\\new\\table"});
  REQUIRE(tsv.size() == 1);
  CHECK(tsv[0].at("text") == "C:\\new\\table");
  CHECK(tsv[0].at("tokens") == arg.at(0).at("tokens"));
  CHECK(tsv[0].at("tokens") == json::array({"[CLS]", "c", ":", "\\", "new", "\\", "table", "[SEP]"}));
}

TEST_CASE("--tsv-escapes reads bertkit's TSV output back, refused for other input (issue 30, item 1)") {
  bktest::TempDir dir;
  const std::string tricky = "say\tto\nthe \\ here";
  bktest::write_file(dir / "in.jsonl", json{{"text", tricky}}.dump() + "\n");
  // bertkit's TSV output escapes tab, newline and backslash.
  bktest::write_file(dir / "escaped.tsv", "text\nsay\\tto\\nthe \\\\ here\n");
  const auto escaped = bktest::run_jsonl({"tokenize", "--tsv-escapes", "-i", (dir / "escaped.tsv").string()});
  CHECK(escaped.at(0).at("text") == tricky);
  const auto literal = bktest::run_jsonl({"tokenize", "-i", (dir / "escaped.tsv").string()});
  CHECK(literal.at(0).at("text") == "say\\tto\\nthe \\\\ here");
  auto csv = run_bertkit({"tokenize", "--tsv-escapes", "-i", (dir / "in.jsonl").string()});
  CHECK(csv.exit_code == 2);
  CHECK(csv.err.find("--tsv-escapes applies to TSV input, not JSONL input") != std::string::npos);
  auto args = run_bertkit({"tokenize", "--tsv-escapes", "hello"});
  CHECK(args.exit_code == 2);
  CHECK(args.err.find("--tsv-escapes") != std::string::npos);
}
