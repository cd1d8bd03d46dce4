#include "records/open_reader.h"
#include "core/error.h"
#include "records_helpers.h"
#include "support.h"

#include <doctest/doctest.h>

using namespace bertkit::records;
using iotest::read_all;
using iotest::write;

TEST_CASE("resolve_format: extensions decide, stdin is lines, mixed kinds are refused") {
  CHECK(resolve_format({"a.csv", "B.CSV"}, InputFormat::Auto) == InputFormat::Csv);
  CHECK(resolve_format({"a.tsv"}, InputFormat::Auto) == InputFormat::Tsv);
  CHECK(resolve_format({"a.jsonl", "b.ndjson"}, InputFormat::Auto) == InputFormat::Jsonl);
  CHECK(resolve_format({"a.txt", "-"}, InputFormat::Auto) == InputFormat::Lines);
  CHECK(resolve_format({}, InputFormat::Auto) == InputFormat::Lines);
  CHECK(resolve_format({"a.txt"}, InputFormat::Csv) == InputFormat::Csv);
  try {
    resolve_format({"a.csv", "b.txt"}, InputFormat::Auto);
    FAIL("no error");
  } catch (const bertkit::Error& e) {
    CHECK(e.kind() == bertkit::ErrorKind::Usage);
    CHECK(std::string(e.what()).find("a.csv is CSV but b.txt is plain text") == 0);
  }
}

TEST_CASE("open_reader picks the reader and passes the options on") {
  bktest::TempDir dir;
  InputSpec spec;
  spec.paths = {write(dir / "in.tsv", "q\tp\nhi\tthere\n").string()};
  spec.column = "q";
  spec.pair_column = "p";
  auto tsv = open_reader(spec);
  REQUIRE(tsv->table() != nullptr);
  CHECK(tsv->table()->delimiter == '\t');
  auto records = read_all(*tsv);
  REQUIRE(records.size() == 1);
  CHECK(records[0].text_pair == "there");

  spec = {};
  spec.paths = {write(dir / "in.jsonl", "{\"body\": \"x\"}\n").string()};
  spec.field = "body";
  auto jsonl = open_reader(spec);
  REQUIRE(jsonl->table() != nullptr);  // the columns of CSV/TSV output: the first record's members
  CHECK(jsonl->table()->jsonl);
  CHECK(jsonl->table()->header == std::vector<std::string>{"body"});
  CHECK(read_all(*jsonl).at(0).text == "x");

  spec = {};
  spec.paths = {write(dir / "in.txt", "a\tb\n").string()};
  spec.pairs = true;
  auto lines = open_reader(spec);
  CHECK(read_all(*lines).at(0).text_pair == "b");

  spec.format = InputFormat::Csv;  // forced: a .txt read as CSV
  spec.column = "a\tb";
  CHECK(open_reader(spec)->table()->header.size() == 1);
}
