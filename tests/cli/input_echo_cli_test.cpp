// "A field never dropped", end to end through the binary: each input record comes back in the
// output exactly as it was written, whatever the input's bytes and whatever the output format.
#include "support.h"
#include "task_cli_helpers.h"

#include <doctest/doctest.h>
#include <fmt/format.h>

#include <string>
#include <vector>

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

TEST_CASE("input echo: JSONL members come back as written, numbers with every digit, a name given twice is refused") {
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

TEST_CASE("input echo: JSONL written as CSV or TSV keeps every member as a column named as in the input") {
  bktest::TempDir dir;
  bktest::write_file(dir / "lists.jsonl", "{\"id\":17,\"query\":\"q\",\"documents\":[\"a\",\"b\"]}\n");
  auto rerank = run_bertkit({"rerank", "-m", bktest::fixture_path("bert-chinese-cross"), "-i",
                             (dir / "lists.jsonl").string(), "--field", "query", "--format", "csv"});
  INFO(rerank.err);
  REQUIRE(rerank.exit_code == 0);
  CHECK(rerank.out.starts_with("id,query,documents,results,truncated\n17,q,\"[\"\"a\"\",\"\"b\"\"]\",\"[{\"\"corpus_id\"\":"));

  bktest::write_file(dir / "in.jsonl",
                     "{\"id\":1e2,\"text\":\"a\\tb\",\"m\":{\"x\":[1, 2.50]},\"z\":null}\n{\"text\":\"c\"}\n");
  const std::string in = (dir / "in.jsonl").string();
  const std::string classifier = bktest::fixture_path(kClassifier);
  auto csv = run_bertkit({"classify", "-m", classifier, "-i", in, "--format", "csv"});
  REQUIRE(csv.exit_code == 0);
  const auto csv_rows = bktest::split_lines(csv.out);
  REQUIRE(csv_rows.size() == 3);
  CHECK(csv_rows[0] == "id,text,m,z,label,score,truncated");
  CHECK(csv_rows[1].starts_with("1e2,a\tb,\"{\"\"x\"\":[1, 2.50]}\",null,"));
  CHECK(csv_rows[2].starts_with(",c,,,"));
  auto tsv = run_bertkit({"classify", "-m", classifier, "-i", in, "--format", "tsv"});
  REQUIRE(tsv.exit_code == 0);
  const auto tsv_rows = bktest::split_lines(tsv.out);
  REQUIRE(tsv_rows.size() == 3);
  CHECK(tsv_rows[0] == "id\ttext\tm\tz\tlabel\tscore\ttruncated");
  CHECK(tsv_rows[1].starts_with("1e2\ta\\tb\t{\"x\":[1, 2.50]}\tnull\t"));
  for (const std::vector<std::string>& command :
       {std::vector<std::string>{"embed", "-m", bktest::fixture_path("minilm-embed"), "--format", "csv"},
        {"ner", "-m", bktest::models2_path("bert-cased-ner"), "--format", "csv"},
        {"tokenize", "-m", classifier, "--format", "tsv"}}) {
    auto args = command;
    args.insert(args.end(), {"-i", in});
    auto r = run_bertkit(args);
    INFO(r.err);
    REQUIRE(r.exit_code == 0);
    const char sep = command.back() == "csv" ? ',' : '\t';
    CHECK(r.out.starts_with(fmt::format("id{0}text{0}m{0}z{0}", sep)));
  }

  bktest::write_file(dir / "more.jsonl", "{\"text\":\"a\"}\n{\"text\":\"b\",\"id\":2}\n");
  auto more = run_bertkit({"classify", "-m", classifier, "-i", (dir / "more.jsonl").string(), "--format", "csv"});
  CHECK(more.exit_code == 3);
  CHECK(more.err.find("more.jsonl:2: the field \"id\" has no column") != std::string::npos);
}

TEST_CASE("input echo: ner --format inline keeps a text with newlines on one line, tokenize's tokens stay as they are") {
  auto ner = run_bertkit({"ner", "-m", bktest::models2_path("bert-cased-ner"), "--jsonl", "--format", "inline"},
                         "{\"text\":\"Angela Merkel\\nvisited\\tParis\\\\.\"}\n");
  INFO(ner.err);
  REQUIRE(ner.exit_code == 0);
  CHECK(bktest::count_lines(ner.out) == 1);
  CHECK(ner.out.find("\\n") != std::string::npos);
  CHECK(ner.out.find("\\t") != std::string::npos);
  std::string plain;  // the marks taken out give the text back, escaped
  for (std::size_t i = 0; i < ner.out.size(); ++i) {
    if (ner.out[i] == '[') i = ner.out.find(' ', i);
    else if (ner.out[i] != ']') plain += ner.out[i];
  }
  CHECK(plain == "Angela Merkel\\nvisited\\tParis\\\\.\n");

  // tokenize's line formats write Hugging Face's tokens and decoded texts as they are: a backslash
  // stays one (no TSV escape), so that tokens match Hugging Face's and --decode reads back.
  auto tokens = run_bertkit({"tokenize", "-m", bktest::fixture_path(kClassifier), "--format", "tokens", "a\\b"});
  REQUIRE(tokens.exit_code == 0);
  CHECK(tokens.out == "[CLS] a \\ b [SEP]\n");
}
