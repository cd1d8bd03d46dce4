// --on-error skip keeps one output row per input record in every format (issue 30, item 1): a failed
// record is written in its place with its input (a line that is not one JSON object: the line) and an
// `error` member or column; CSV/TSV output has the error column only when the run may skip.
#include "task_cli_helpers.h"

#include <doctest/doctest.h>

#include <string>
#include <vector>

namespace {

namespace fs = std::filesystem;
using bktest::run_bertkit;
using nlohmann::json;

const std::string kBadJsonl =
    "{\"id\": 1, \"text\": \"good one\"}\n"
    "{\"id\": 2, \"text\": 42}\n"
    "not json {\n"
    "{\"id\": 4, \"text\": \"good two\"}\n"
    "{\"id\": 5, \"other\": \"x\"}\n"
    "[1, 2]\n"
    "{\"id\": 7, \"text\": \"good three\"}\n";

std::string cls() { return bktest::fixture_path("distilbert-uncased-cls"); }

}  // namespace

TEST_CASE("--on-error skip: JSONL output keeps a row per input record, the failed ones with their input and error (issue 30, item 1)") {
  bktest::TempDir dir;
  bktest::write_file(dir / "in.jsonl", kBadJsonl);
  for (const char* batch : {"1", "3", "64"}) {
    CAPTURE(batch);
    auto r = run_bertkit({"classify", "-m", cls(), "-i", (dir / "in.jsonl").string(), "--on-error", "skip", "--batch-size", batch});
    INFO(r.err);
    REQUIRE(r.exit_code == 0);
    const auto rows = bktest::json_lines(r.out);
    REQUIRE(rows.size() == 7);
    CHECK(rows[0].at("id") == 1);
    CHECK(rows[0].contains("label"));
    CHECK_FALSE(rows[0].contains("error"));
    CHECK(rows[1] == json{{"id", 2}, {"text", 42}, {"error", rows[1].at("error")}});
    CHECK(rows[1].at("error").get<std::string>().find("in.jsonl:2: field \"text\" is number, not a string") != std::string::npos);
    CHECK(rows[2].at("line") == "not json {");
    CHECK(rows[2].at("error").get<std::string>().find("in.jsonl:3: invalid JSON") != std::string::npos);
    CHECK(rows[3].at("id") == 4);
    CHECK(rows[3].contains("label"));
    CHECK(rows[4] == json{{"id", 5}, {"other", "x"}, {"error", rows[4].at("error")}});
    CHECK(rows[5].at("line") == "[1, 2]");
    CHECK(rows[6].at("id") == 7);
    CHECK(r.err.find("4 bad records skipped") != std::string::npos);
  }
}

TEST_CASE("--on-error skip: CSV/TSV output has an error column, empty result cells in failed rows (issue 30, item 1)") {
  bktest::TempDir dir;
  bktest::write_file(dir / "in.csv", "id,text\n1,good one\n2,\"two\",extra\n3,good three\n");
  for (const char* format : {"csv", "tsv"}) {
    CAPTURE(format);
    const std::string sep = format == std::string("csv") ? "," : "\t";
    auto skip = run_bertkit({"classify", "-m", cls(), "-i", (dir / "in.csv").string(), "--column", "text", "--on-error", "skip", "--format", format});
    INFO(skip.err);
    REQUIRE(skip.exit_code == 0);
    const auto lines = bktest::split_lines(skip.out);
    REQUIRE(lines.size() == 4);
    CHECK(lines[0].starts_with("id" + sep + "text" + sep));
    CHECK(lines[0].ends_with(sep + "truncated" + sep + "error"));
    CHECK(lines[1].starts_with("1" + sep + "good one" + sep));
    CHECK(lines[1].ends_with(sep + "false" + sep));  // a good row's error is empty
    // Three fields for two columns: the input cells are empty, every result cell too, then the error.
    const std::size_t columns = static_cast<std::size_t>(std::count(lines[0].begin(), lines[0].end(), sep[0]));
    CHECK(lines[2].starts_with(std::string(columns, sep[0])));
    CHECK(lines[2].find("in.csv:3: 3 fields, the header has 2") != std::string::npos);
    CHECK(lines[3].starts_with("3" + sep + "good three" + sep));
    // A run that stops at the first bad record has no error column.
    auto fail = run_bertkit({"classify", "-m", cls(), "-i", (dir / "in.csv").string(), "--column", "text", "--format", format});
    CHECK(fail.exit_code == 3);
    CHECK(bktest::split_lines(fail.out).at(0).ends_with(sep + "truncated"));
  }
  // JSONL output of the same: the row as read.
  const auto rows = bktest::run_jsonl({"classify", "-m", cls(), "-i", (dir / "in.csv").string(), "--column", "text", "--on-error", "skip"});
  REQUIRE(rows.size() == 3);
  CHECK(rows[1].at("line") == "2,\"two\",extra");
  CHECK(rows[2].at("id") == "3");
}

TEST_CASE("--on-error skip: a record the model refuses and one the reader refuses in one batch stay in input order (issue 30, item 1)") {
  bktest::TempDir dir;
  // Line 2 is refused by fill-mask (no mask, found when the batch is computed), line 3 by the reader
  // (--strict): the later one is known first.
  bktest::write_file(dir / "in.txt", "a [MASK] b\nno mask at all\nbad \xff byte [MASK]\nc [MASK] d\n");
  auto r = run_bertkit({"fill-mask", "-m", bktest::fixture_path("bert-uncased-mlm"), "-i", (dir / "in.txt").string(),
                        "--strict", "--on-error", "skip", "--batch-size", "4", "--top-k", "1"});
  INFO(r.err);
  REQUIRE(r.exit_code == 0);
  const auto rows = bktest::json_lines(r.out);
  REQUIRE(rows.size() == 4);
  CHECK(rows[0].at("text") == "a [MASK] b");
  CHECK(rows[1].at("text") == "no mask at all");
  CHECK(rows[1].at("error").get<std::string>().find("in.txt:2:") != std::string::npos);
  CHECK_FALSE(rows[1].contains("predictions"));
  CHECK(rows[2].at("text") == "bad \xEF\xBF\xBD byte [MASK]");
  CHECK(rows[2].at("error").get<std::string>().find("in.txt:3: invalid UTF-8") != std::string::npos);
  CHECK(rows[3].at("text") == "c [MASK] d");
  CHECK(rows[3].contains("predictions"));
}

TEST_CASE("--on-error skip: rows held to the end (int8 without calibration) and search queries keep their places (issue 30, item 1)") {
  bktest::TempDir dir;
  const std::string minilm = bktest::fixture_path("minilm-embed");
  bktest::write_file(dir / "in.jsonl", "{\"text\": \"one\"}\n{\"text\": 5}\n{\"text\": \"three\"}\n");
  const auto int8 = bktest::run_jsonl({"embed", "-m", minilm, "-i", (dir / "in.jsonl").string(), "--precision", "int8", "--on-error", "skip"});
  REQUIRE(int8.size() == 3);
  CHECK(int8[0].at("text") == "one");
  CHECK(int8[1].contains("error"));
  CHECK(int8[2].at("text") == "three");
  CHECK(int8[2].at("embedding").size() == int8[0].at("embedding").size());

  bktest::write_file(dir / "corpus.txt", "a man eats\nthe sky is blue\n");
  bktest::write_file(dir / "queries.jsonl", "{\"text\": \"food\"}\n{\"q\": 1}\n{\"text\": \"weather\"}\n");
  const auto hits = bktest::run_jsonl({"similarity", "-m", minilm, "--queries", (dir / "queries.jsonl").string(), "--corpus",
                                       (dir / "corpus.txt").string(), "--on-error", "skip"});
  REQUIRE(hits.size() == 3);
  CHECK(hits[0].at("text") == "food");
  CHECK(hits[1] == json{{"q", 1}, {"error", hits[1].at("error")}});
  CHECK(hits[2].at("text") == "weather");
}

TEST_CASE("--on-error skip: ner's inline layout keeps a failed record's line, empty (issue 30, item 1)") {
  bktest::TempDir dir;
  bktest::write_file(dir / "in.txt", "Angela Merkel visited Paris\n" + std::string(300, 'x') + "\nBerlin\n");
  auto skip = run_bertkit({"ner", "-m", bktest::models2_path("bert-cased-ner"), "--format", "inline", "--on-error", "skip",
                           "--max-line-bytes", "100", "-i", (dir / "in.txt").string()});
  INFO(skip.err);
  REQUIRE(skip.exit_code == 0);
  const auto lines = bktest::split_lines(skip.out);
  REQUIRE(lines.size() == 3);
  CHECK(lines[0].find("Merkel") != std::string::npos);
  CHECK(lines[1].empty());
  CHECK(lines[2].find("Berlin") != std::string::npos);
}
