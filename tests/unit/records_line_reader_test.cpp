#include "records/line_reader.h"
#include "core/error.h"
#include "records_helpers.h"
#include "support.h"

#include <doctest/doctest.h>
#include <fcntl.h>
#include <unistd.h>

#include <thread>

using namespace bertkit::records;
using iotest::bad_input_message;
using iotest::read_all;
using iotest::write;

namespace {
const std::string R = "\xEF\xBF\xBD";  // U+FFFD
}  // namespace

TEST_CASE("line reader: CRLF, BOM, empty lines, NUL bytes and a last line without newline") {
  bktest::TempDir dir;
  auto path = write(dir / "a.txt", std::string("\xEF\xBB\xBF" "first\r\n\nsecond\rmid\r\n\r\nnul\0byte\nlast", 38));
  LineReader reader({path.string()});
  auto records = read_all(reader);
  REQUIRE(records.size() == 6);
  CHECK(records[0].text == "first");
  CHECK(records[1].text == "");
  CHECK(records[2].text == "second\rmid");  // only a '\r' right before '\n' is a line end
  CHECK(records[3].text == "");
  CHECK(records[4].text == std::string("nul\0byte", 8));
  CHECK(records[5].text == "last");
  for (std::size_t i = 0; i < records.size(); ++i) {
    CHECK(records[i].line == i + 1);
    CHECK(records[i].source == path.string());
    CHECK_FALSE(records[i].bad());
    CHECK_FALSE(records[i].has_pair);
  }
  CHECK(reader.total_bytes() == std::filesystem::file_size(path));
  CHECK(reader.bytes_read() == std::filesystem::file_size(path));
}

TEST_CASE("line reader: several inputs in order, each with its own line numbers and BOM") {
  bktest::TempDir dir;
  auto a = write(dir / "a.txt", "a1\na2\n");
  auto empty = write(dir / "empty.txt", "");
  auto b = write(dir / "b.txt", "\xEF\xBB\xBF" "b1");
  LineReader reader({a.string(), empty.string(), b.string()});
  auto records = read_all(reader);
  REQUIRE(records.size() == 3);
  CHECK(records[0].text == "a1");
  CHECK(records[1].text == "a2");
  CHECK(records[1].line == 2);
  CHECK(records[2].text == "b1");
  CHECK(records[2].line == 1);
  CHECK(records[2].source == b.string());
  CHECK(reader.bytes_read() == *reader.total_bytes());
  CHECK_FALSE(reader.next(records[0]));  // stays at the end
}

TEST_CASE("line reader: a missing input fails when the reader is made, naming it") {
  bktest::TempDir dir;
  auto a = write(dir / "a.txt", "x\n");
  std::string missing = (dir / "missing.txt").string();
  try {
    LineReader reader({a.string(), missing});
    FAIL("no error");
  } catch (const bertkit::Error& e) {
    CHECK(std::string(e.what()).find(missing) != std::string::npos);
  }
  CHECK_THROWS_AS(LineReader({dir.path().string()}), bertkit::Error);  // a directory
  CHECK_THROWS_AS(LineReader({"-", a.string(), "-"}), bertkit::Error);  // stdin can be read once
}

TEST_CASE("line reader: invalid UTF-8 is repaired as Python does and reported once") {
  bktest::TempDir dir;
  auto path = write(dir / "bad.txt", "ok\nbad \xFF here\nfine\n\xE2\x82\n");
  LineReader reader({path.string()});
  auto records = read_all(reader);
  REQUIRE(records.size() == 4);
  CHECK(records[1].text == "bad " + R + " here");
  CHECK(records[1].repaired);
  CHECK_FALSE(records[2].repaired);
  CHECK(records[3].text == R);
  CHECK(reader.utf8_report().records == 2);
  CHECK(reader.utf8_report().first_line == 2);
  CHECK(reader.utf8_report().first_source == path.string());
}

TEST_CASE("line reader: strict UTF-8 stops at the first bad line, or flags it") {
  bktest::TempDir dir;
  auto path = write(dir / "bad.txt", "ok\nbad \xC0\xAF\nfine\n");
  ReaderOptions strict;
  strict.strict_utf8 = true;
  std::string message = bad_input_message([&] {
    LineReader reader({path.string()}, strict);
    read_all(reader);
  });
  CHECK(message == path.string() + ":2: invalid UTF-8");

  strict.on_bad_record = OnBadRecord::Flag;
  LineReader reader({path.string()}, strict);
  auto records = read_all(reader);
  REQUIRE(records.size() == 3);
  CHECK(records[1].error == path.string() + ":2: invalid UTF-8");
  CHECK_FALSE(records[2].bad());
  CHECK(records[2].text == "fine");
}

TEST_CASE("line reader: pairs split on the first tab, a line without one is bad") {
  bktest::TempDir dir;
  auto path = write(dir / "pairs.tsv", "q1\tp1\r\nq2\tp2\twith tab\nno tab here\n\t\n");
  ReaderOptions flag;
  flag.on_bad_record = OnBadRecord::Flag;
  LineReader reader({path.string()}, flag, /*pairs=*/true);
  auto records = read_all(reader);
  REQUIRE(records.size() == 4);
  CHECK(records[0].text == "q1");
  CHECK(records[0].text_pair == "p1");
  CHECK(records[0].has_pair);
  CHECK(records[1].text_pair == "p2\twith tab");
  CHECK(records[2].error == path.string() + ":3: no tab between text and text_pair");
  CHECK(records[3].text == "");
  CHECK(records[3].text_pair == "");

  std::string message = bad_input_message([&] {
    LineReader strict({path.string()}, {}, true);
    read_all(strict);
  });
  CHECK(message == path.string() + ":3: no tab between text and text_pair");
}

TEST_CASE("line reader: a line over the record limit is refused with file and line") {
  bktest::TempDir dir;
  auto path = write(dir / "long.txt", "short\n" + std::string(100, 'x') + "\nafter\n");
  ReaderOptions options;
  options.max_record_bytes = 50;
  std::string message = bad_input_message([&] {
    LineReader reader({path.string()}, options);
    read_all(reader);
  });
  CHECK(message.find(path.string() + ":2: line longer than the limit of 50 bytes") == 0);

  options.on_bad_record = OnBadRecord::Flag;
  LineReader reader({path.string()}, options);
  auto records = read_all(reader);
  REQUIRE(records.size() == 3);
  CHECK(records[1].bad());
  CHECK(records[2].text == "after");
  CHECK(records[2].line == 3);
}

TEST_CASE("line reader: a 150 MB line is read whole") {
  bktest::TempDir dir;
  auto path = dir / "huge.txt";
  const std::size_t chunk_size = 1 << 20, chunks = 150;
  {
    std::ofstream out(path, std::ios::binary);
    std::string chunk(chunk_size, 'a');
    for (std::size_t i = 0; i < chunks; ++i) {
      chunk.back() = static_cast<char>('A' + i % 26);  // marks where each chunk ends
      out << chunk;
    }
    out << "\nend\n";
  }
  LineReader reader({path.string()});
  Record record;
  REQUIRE(reader.next(record));
  REQUIRE(record.text.size() == chunk_size * chunks);
  for (std::size_t i = 0; i < chunks; ++i) CHECK(record.text[(i + 1) * chunk_size - 1] == 'A' + i % 26);
  CHECK(record.text[0] == 'a');
  REQUIRE(reader.next(record));
  CHECK(record.text == "end");
  CHECK(record.line == 2);
}

TEST_CASE("line reader: stdin, from a redirected file and from a pipe") {
  bktest::TempDir dir;
  auto path = write(dir / "in.txt", "\xEF\xBB\xBF" "one\ntwo\n");
  {
    int fd = ::open(path.c_str(), O_RDONLY);
    iotest::StdinFrom redirect(fd);
    ::close(fd);
    LineReader reader({"-"});
    CHECK(reader.total_bytes() == std::filesystem::file_size(path));
    auto records = read_all(reader);
    REQUIRE(records.size() == 2);
    CHECK(records[0].text == "one");
    CHECK(records[0].source == "<stdin>");
  }
  int fds[2];
  REQUIRE(::pipe(fds) == 0);
  std::thread writer([&] {
    std::string data;
    for (int i = 0; i < 100000; ++i) data += "line " + std::to_string(i) + "\n";
    for (std::size_t done = 0; done < data.size();) {
      ssize_t n = ::write(fds[1], data.data() + done, data.size() - done);
      if (n <= 0) break;
      done += static_cast<std::size_t>(n);
    }
    ::close(fds[1]);
  });
  {
    iotest::StdinFrom redirect(fds[0]);
    ::close(fds[0]);
    LineReader reader({});  // no inputs = stdin
    CHECK_FALSE(reader.total_bytes().has_value());
    Record record;
    std::size_t count = 0;
    bool in_order = true;
    while (reader.next(record)) in_order &= record.text == "line " + std::to_string(count++);
    CHECK(count == 100000);
    CHECK(in_order);
  }
  writer.join();
}
