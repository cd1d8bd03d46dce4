#include "records/csv_reader.h"
#include "records/table_writer.h"
#include "records_helpers.h"
#include "support.h"

#include <doctest/doctest.h>

using namespace bertkit::records;
using bertkit::records::RecordWriter;
using iotest::read_all;
using iotest::write;

namespace {
using Strings = std::vector<std::string>;

// Scores a table: every input column, then label and score.
void score(const std::string& in, const std::string& out_path, char out_delimiter, char in_delimiter = ',') {
  TableOptions table;
  table.delimiter = in_delimiter;
  table.tsv_escapes = in_delimiter == '\t';  // TSV read back is bertkit's own output: its escapes (--tsv-escapes)
  table.column = "text";
  CsvReader reader({in}, table);
  RecordWriter out(out_path);
  TableWriter writer(out, out_delimiter, reader.table());
  writer.header({"label", "score"});
  Record record;
  while (reader.next(record)) writer.begin_row(record).cell(record.text.size() % 2 ? "odd" : "even").cell(0.25f).end_row();
}

const std::string kTricky =
    "id,text,\"quoted, header\"\r\n"
    "1,plain,\"\"\r\n"
    "2,\"comma, inside\",\"multi\nline\"\r\n"
    "3,\"say \"\"hi\"\"\",  spaces  \r\n"
    "\"4\",\t,\xFF\xFE bytes\r\n";
}  // namespace

TEST_CASE("table writer: CSV to CSV keeps every input column byte for byte and appends results") {
  bktest::TempDir dir;
  auto in = write(dir / "in.csv", kTricky);
  auto out = dir / "out.csv";
  score(in.string(), out.string(), ',');
  auto written = bktest::read_lines(out);
  std::vector<std::string> input_rows;
  for (std::size_t start = 0; start < kTricky.size();) {  // records, not lines: row 2 spans two
    std::size_t end = start;
    for (int quotes = 0; !(kTricky[end] == '\r' && quotes % 2 == 0); ++end) quotes += kTricky[end] == '"';
    input_rows.push_back(kTricky.substr(start, end - start));
    start = end + 2;
  }
  std::string expected = input_rows[0] + ",label,score\n";
  const char* labels[] = {"odd", "odd", "even", "odd"};  // "plain", "comma, inside", "say \"hi\"", "\t"
  for (std::size_t i = 1; i < input_rows.size(); ++i) expected += input_rows[i] + "," + labels[i - 1] + ",0.25\n";
  CHECK(bktest::read_file(out) == expected);
  CHECK(written.size() == 6);

  // And it reads back: the same fields, plus the two new ones.
  CsvReader original({in.string()}, [] { TableOptions t; t.column = "text"; return t; }());
  CsvReader again({out.string()}, [] { TableOptions t; t.column = "label"; return t; }());
  CHECK(again.table()->header == Strings{"id", "text", "quoted, header", "label", "score"});
  auto before = read_all(original);
  auto after = read_all(again);
  REQUIRE(after.size() == before.size());
  for (std::size_t i = 0; i < before.size(); ++i) {
    Strings expected_fields = before[i].fields;
    expected_fields.push_back(labels[i]);
    expected_fields.push_back("0.25");
    CHECK(after[i].fields == expected_fields);
  }
}

TEST_CASE("table writer: CSV to TSV escapes (never quotes), TSV to CSV quotes where the delimiter needs it (issue 19, item 21)") {
  bktest::TempDir dir;
  auto in = write(dir / "in.csv", kTricky);
  auto tsv = dir / "out.tsv";
  score(in.string(), tsv.string(), '\t');
  auto text = bktest::read_file(tsv);
  CHECK(text.find("id\ttext\tquoted, header\tlabel\tscore\n") == 0);
  CHECK(text.find("4\t\\t\t\xFF\xFE bytes\todd\t0.25\n") != std::string::npos);
  CHECK(text.find("2\tcomma, inside\tmulti\\nline\t") != std::string::npos);
  CHECK(text.find("3\tsay \"hi\"\t  spaces  \t") != std::string::npos);
  auto csv = dir / "back.csv";
  score(tsv.string(), csv.string(), ',', '\t');
  TableOptions t;
  t.column = "text";
  CsvReader original({in.string()}, t), twice({csv.string()}, t);
  auto before = read_all(original);
  auto after = read_all(twice);
  REQUIRE(after.size() == before.size());
  for (std::size_t i = 0; i < before.size(); ++i) {
    REQUIRE(after[i].fields.size() == 7);
    CHECK(Strings(after[i].fields.begin(), after[i].fields.begin() + 3) == before[i].fields);
  }
}

TEST_CASE("table writer: rows without a table input, quoting only where needed") {
  bktest::TempDir dir;
  auto path = dir / "out.csv";
  {
    RecordWriter out(path.string());
    TableWriter writer(out, ',');
    writer.header({"text", "n", "ok", "score"});
    Record record;
    writer.begin_row(record).cell("a \"b\", c").cell(3).cell(true).cell(1.0f).end_row();
    writer.begin_row(record).cell("line\r\nend").cell(std::size_t{0}).cell(false).cell(0.1).end_row();
  }
  CHECK(bktest::read_file(path) == "text,n,ok,score\n\"a \"\"b\"\", c\",3,true,1.0\n\"line\r\nend\",0,false,0.1\n");
  {
    RecordWriter out(path.string());
    TableWriter writer(out, ',');
    writer.header({"text"});
    Record record;
    writer.begin_row(record).cell("").end_row();  // not a blank line, which would be skipped
  }
  CHECK(bktest::read_file(path) == "text\n\"\"\n");
  {
    RecordWriter out(path.string());
    TableWriter writer(out, ',');
    writer.header({"\xEF\xBB\xBFname"});  // a byte order mark that is data, not a file marker
  }
  CHECK(bktest::read_file(path) == "\"\xEF\xBB\xBFname\"\n");
  CsvReader reader({path.string()}, {});
  CHECK(reader.table()->header == Strings{"\xEF\xBB\xBFname"});
}

TEST_CASE("table writer: a first column name beginning with U+FEFF reads back whole, in TSV and CSV (fuzz_csv_reader)") {
  bktest::TempDir dir;
  const std::string bom = "\xEF\xBB\xBF";
  for (char delimiter : {'\t', ','}) {
    CAPTURE(delimiter);
    auto path = dir / "out.txt";
    {
      RecordWriter out(path.string());
      TableWriter writer(out, delimiter);
      writer.header({bom + "b", "c"});
      Record record;
      writer.begin_row(record).cell("x").cell("y").end_row();
    }
    TableOptions table;
    table.delimiter = delimiter;
    table.column = "c";
    CsvReader reader({path.string()}, table);
    CHECK(reader.table()->header == Strings{bom + "b", "c"});
    CHECK(read_all(reader).at(0).fields == Strings{"x", "y"});
  }
}
