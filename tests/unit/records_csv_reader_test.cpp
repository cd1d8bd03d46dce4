#include "records/csv_reader.h"
#include "core/error.h"
#include "records_helpers.h"
#include "support.h"

#include <doctest/doctest.h>
#include <fcntl.h>
#include <unistd.h>

using namespace bertkit::records;
using iotest::read_all;
using iotest::write;

namespace {
using Strings = std::vector<std::string>;

std::string construction_error(const std::vector<std::string>& paths, const TableOptions& table) {
  try {
    CsvReader reader(paths, table);
  } catch (const bertkit::Error& e) {
    return e.what();
  }
  return "(no error)";
}

std::string reading_error(const std::string& path, const TableOptions& table, ReaderOptions options = {}) {
  return iotest::bad_input_message([&] {
    CsvReader reader({path}, table, options);
    read_all(reader);
  });
}

TableOptions column(const std::string& name, char delimiter = ',') {
  TableOptions t;
  t.column = name;
  t.delimiter = delimiter;
  return t;
}
}  // namespace

TEST_CASE("csv reader: quoting, embedded line ends, doubled quotes, CRLF and BOM") {
  bktest::TempDir dir;
  const std::string rows[] = {
      "id,text,note",
      "1,plain,x",
      "2,\"with, comma\",\"line1\nline2\"",
      "3,\"she said \"\"hi\"\"\",\"\"",
      "4,\"crlf\r\ninside\",5\" screen",
      "5,,",
  };
  std::string file = "\xEF\xBB\xBF";
  for (const auto& row : rows) file += row + "\r\n";
  auto path = write(dir / "in.csv", file);
  CsvReader reader({path.string()}, column("text"));
  CHECK(reader.table()->header == Strings{"id", "text", "note"});
  CHECK(reader.table()->raw_header == rows[0]);
  CHECK(reader.text_index() == 1);
  auto records = read_all(reader);
  REQUIRE(records.size() == 5);
  for (std::size_t i = 0; i < records.size(); ++i) {
    CHECK(records[i].raw == rows[i + 1]);  // byte for byte, quoting included
    CHECK_FALSE(records[i].bad());
    CHECK(records[i].source == path.string());
  }
  CHECK(records[0].fields == Strings{"1", "plain", "x"});
  CHECK(records[1].fields == Strings{"2", "with, comma", "line1\nline2"});
  CHECK(records[2].fields == Strings{"3", "she said \"hi\"", ""});
  CHECK(records[3].fields == Strings{"4", "crlf\r\ninside", "5\" screen"});
  CHECK(records[4].fields == Strings{"5", "", ""});
  CHECK(records[1].text == "with, comma");
  CHECK(records[2].text == "she said \"hi\"");
  // Records start on the line of their first byte; embedded line ends count.
  CHECK(records[0].line == 2);
  CHECK(records[1].line == 3);
  CHECK(records[2].line == 5);
  CHECK(records[3].line == 6);
  CHECK(records[4].line == 8);
  CHECK(reader.bytes_read() == file.size());
}

TEST_CASE("csv reader: TSV, pair column, blank lines, a last row without line end, literal unless tsv_escapes") {
  bktest::TempDir dir;
  auto path = write(dir / "pairs.tsv", "question\tcontext\n\nwho?\ta\\tb\n\n\nwhy?\tbecause");
  TableOptions table = column("question", '\t');
  table.pair_column = "context";
  CsvReader reader({path.string()}, table);
  auto records = read_all(reader);
  REQUIRE(records.size() == 2);
  CHECK(records[0].text == "who?");
  CHECK(records[0].text_pair == "a\\tb");  // a backslash is data, as cut and pandas read it
  CHECK(records[0].has_pair);
  CHECK(records[0].line == 3);
  CHECK(records[1].text_pair == "because");
  CHECK(records[1].line == 6);
  CHECK(reader.pair_index() == 1u);
  table.tsv_escapes = true;  // bertkit's TSV output read back
  CsvReader escaped({path.string()}, table);
  CHECK(read_all(escaped).at(0).text_pair == "a\tb");
}

TEST_CASE("csv reader: a missing column is refused up front, listing the columns") {
  bktest::TempDir dir;
  auto path = write(dir / "in.csv", "id,review,label\n1,good,pos\n");
  CHECK(construction_error({path.string()}, column("text")) ==
        path.string() + ": no column \"text\" (columns: id, review, label)");
  TableOptions table = column("review");
  table.pair_column = "other";
  CHECK(construction_error({path.string()}, table).find("no column \"other\"") != std::string::npos);
  // Without --column only a one-column table is unambiguous.
  CHECK(construction_error({path.string()}, {}).find("choose the text column with --column") != std::string::npos);
  auto single = write(dir / "single.csv", "sentence\nhello\n\"\"\n");
  CsvReader reader({single.string()}, {});
  auto records = read_all(reader);
  REQUIRE(records.size() == 2);
  CHECK(records[0].text == "hello");
  CHECK(records[1].text == "");
  auto dup = write(dir / "dup.csv", "text,text\na,b\n");
  CHECK(construction_error({dup.string()}, column("text")).find("names column \"text\" 2 times") != std::string::npos);
}

TEST_CASE("csv reader: every input's header is checked before reading") {
  bktest::TempDir dir;
  auto a = write(dir / "a.csv", "text,label\nx,1\n");
  auto b = write(dir / "b.csv", "\xEF\xBB\xBF" "text,label\r\ny,2\r\n");
  auto c = write(dir / "c.csv", "text,score\nz,3\n");
  auto empty = write(dir / "empty.csv", "");
  CHECK(construction_error({a.string(), c.string()}, column("text")) ==
        c.string() + ": the header (text, score) differs from the header of " + a.string() + " (text, label)");
  CHECK(construction_error({a.string(), empty.string()}, column("text")) ==
        empty.string() + ": the input is empty, expected a header row");
  CHECK(construction_error({write(dir / "blank.csv", "\nx\n").string()}, column("x")).find(":1: the header row is empty") !=
        std::string::npos);

  CsvReader reader({a.string(), b.string()}, column("text"));
  auto records = read_all(reader);
  REQUIRE(records.size() == 2);
  CHECK(records[0].text == "x");
  CHECK(records[1].text == "y");
  CHECK(records[1].source == b.string());
  CHECK(records[1].line == 2);
  CHECK(records[1].raw == "y,2");
}

TEST_CASE("csv reader: ragged rows and bad quoting are bad records naming the line") {
  bktest::TempDir dir;
  auto path = write(dir / "in.csv", "a,b\n1,2\n3\n4,5,6\n\"x\"y,7\n8,9\n");
  CHECK(reading_error(path.string(), column("a")) == path.string() + ":3: 1 field, the header has 2");
  ReaderOptions flag;
  flag.on_bad_record = OnBadRecord::Flag;
  CsvReader reader({path.string()}, column("a"), flag);
  auto records = read_all(reader);
  REQUIRE(records.size() == 5);
  CHECK_FALSE(records[0].bad());
  CHECK(records[1].error == path.string() + ":3: 1 field, the header has 2");
  CHECK(records[2].error == path.string() + ":4: 3 fields, the header has 2");
  CHECK(records[3].error == path.string() + ":5: unexpected character after a closing quote");
  CHECK(records[4].text == "8");
  CHECK(records[4].line == 6);

  auto open_quote = write(dir / "open.csv", "a,b\n1,2\n3,\"never\nclosed\n");
  CHECK(reading_error(open_quote.string(), column("a")) ==
        open_quote.string() + ":3: a quoted field is not closed before the end of the input");
}

TEST_CASE("csv reader: invalid UTF-8 is repaired in the text only, fields keep the bytes") {
  bktest::TempDir dir;
  auto path = write(dir / "in.csv", "text,other\nbad\xFF,\xFE\n");
  CsvReader reader({path.string()}, column("text"));
  auto records = read_all(reader);
  REQUIRE(records.size() == 1);
  CHECK(records[0].text == "bad\xEF\xBF\xBD");
  CHECK(records[0].repaired);
  CHECK(records[0].fields == Strings{"bad\xFF", "\xFE"});
  CHECK(records[0].raw == "bad\xFF,\xFE");
  CHECK(reader.utf8_report().first_line == 2);
  ReaderOptions strict;
  strict.strict_utf8 = true;
  CHECK(reading_error(path.string(), column("text"), strict) == path.string() + ":2: invalid UTF-8");
}

TEST_CASE("csv reader: NUL bytes, and a record over the size limit") {
  bktest::TempDir dir;
  auto path = write(dir / "in.csv", std::string("t\n\"a\0b\"\n", 9) + std::string(200, 'x') + "\nshort\n");
  ReaderOptions options;
  options.max_record_bytes = 100;
  options.on_bad_record = OnBadRecord::Flag;
  CsvReader reader({path.string()}, {}, options);
  auto records = read_all(reader);
  REQUIRE(records.size() == 3);
  CHECK(records[0].text == std::string("a\0b", 3));
  CHECK(records[1].error == path.string() + ":3: record longer than the limit of 100 bytes (--max-line-bytes)");
  CHECK(records[2].text == "short");
  CHECK(records[2].line == 4);
}

TEST_CASE("csv reader: quotes and CRLF split across read chunks") {
  bktest::TempDir dir;
  const std::size_t chunk = 256 * 1024;
  // Put each tricky spot at every position around the first chunk boundary.
  const std::string tricky = "\"q\"\"q\",\"l1\r\nl2\"\r\n";
  for (std::size_t shift = 0; shift < tricky.size() + 2; ++shift) {
    std::string head = "a,b\r\n";
    std::string pad(chunk - head.size() - 4 - tricky.size() + shift, 'p');
    std::string file = head + "x," + pad + "\r\n" + tricky + "z,\"\"\r\n";
    auto path = write(dir / "chunks.csv", file);
    CsvReader reader({path.string()}, column("a"));
    auto records = read_all(reader);
    REQUIRE(records.size() == 3);
    CHECK(records[0].fields[1] == pad);
    CHECK(records[1].fields == Strings{"q\"q", "l1\r\nl2"});
    CHECK(records[1].raw == tricky.substr(0, tricky.size() - 2));
    CHECK(records[2].line == 5);
    CHECK(records[2].fields == Strings{"z", ""});
  }
}

TEST_CASE("csv reader: stdin keeps its position after the header check") {
  bktest::TempDir dir;
  auto path = write(dir / "in.csv", "text\none\ntwo\n");
  int fd = ::open(path.c_str(), O_RDONLY);
  iotest::StdinFrom redirect(fd);
  ::close(fd);
  auto other = write(dir / "other.csv", "text\nthree\n");
  CsvReader reader({other.string(), "-"}, column("text"));
  auto records = read_all(reader);
  REQUIRE(records.size() == 3);
  CHECK(records[0].text == "three");
  CHECK(records[1].text == "one");
  CHECK(records[1].source == "<stdin>");
  CHECK(records[1].line == 2);
  CHECK(records[2].text == "two");
}
