#include "records/jsonl_reader.h"
#include "core/error.h"
#include "records_helpers.h"
#include "support.h"

#include <doctest/doctest.h>

using namespace bertkit::records;
using iotest::read_all;
using iotest::write;
using namespace std::string_literals;

namespace {
JsonlOptions field(const std::string& name, const std::string& pair = "") {
  JsonlOptions o;
  o.field = name;
  o.pair_field = pair;
  return o;
}

std::string error_of(const std::string& path, const JsonlOptions& jsonl) {
  return iotest::bad_input_message([&] {
    JsonlReader reader({path}, jsonl);
    read_all(reader);
  });
}
}  // namespace

TEST_CASE("jsonl reader: text and pair fields, the object kept, blank lines, CRLF and BOM") {
  bktest::TempDir dir;
  auto path = write(dir / "in.jsonl",
                    "\xEF\xBB\xBF{\"question\": \"who?\", \"context\": \"me\\n\\u00e9\", \"id\": 7}\r\n"
                    "\n   \n"
                    "{\"context\": \"c2\", \"question\": \"q2\\u0000\", \"meta\": {\"a\": [1, 2.5]}}");
  JsonlReader reader({path.string()}, field("question", "context"));
  auto records = read_all(reader);
  REQUIRE(records.size() == 2);
  CHECK(records[0].text == "who?");
  CHECK(records[0].text_pair == "me\n\xC3\xA9");
  CHECK(records[0].has_pair);
  CHECK(records[0].object["id"] == 7);
  CHECK(records[0].line == 1);
  CHECK(records[1].text == std::string("q2\0", 3));
  CHECK(records[1].object["meta"]["a"][1] == 2.5);
  CHECK(records[1].line == 4);
  CHECK(records[1].source == path.string());
}

TEST_CASE("jsonl reader: a field missing from the first record fails when the reader is made") {
  bktest::TempDir dir;
  auto path = write(dir / "in.jsonl", "{\"sentence\": \"a\", \"label\": 1}\n");
  ReaderOptions flag;
  flag.on_bad_record = OnBadRecord::Flag;  // even when bad records are skipped: it is a typo
  try {
    JsonlReader reader({path.string()}, field("text"), flag);
    FAIL("no error");
  } catch (const bertkit::Error& e) {
    CHECK(std::string(e.what()) == path.string() + ":1: no field \"text\" (fields: sentence, label)");
  }
  CHECK(error_of(path.string(), field("sentence", "pair")).find(":1: no field \"pair\"") != std::string::npos);
}

TEST_CASE("jsonl reader: bad lines are bad records naming file and line") {
  bktest::TempDir dir;
  auto path = write(dir / "in.jsonl",
                    "{\"text\": \"ok\"}\n"
                    "{\"text\": \"unterminated}\n"
                    "[\"not an object\"]\n"
                    "{\"text\": 5}\n"
                    "{\"other\": \"x\"}\n" +
                        std::string(100, '[') + std::string(100, ']') + "\n"
                    "{\"text\": \"fine\"}\n"
                    "{\"text\": \"a\", \"n\": 1e999}\n");  // too large for a double (found by fuzzing)
  ReaderOptions flag;
  flag.on_bad_record = OnBadRecord::Flag;
  JsonlReader reader({path.string()}, field("text"), flag);
  auto records = read_all(reader);
  REQUIRE(records.size() == 8);
  std::string p = path.string();
  CHECK_FALSE(records[0].bad());
  CHECK(records[1].error.find(p + ":2: invalid JSON at byte") == 0);
  CHECK(records[2].error == p + ":3: expected a JSON object, found array");
  CHECK(records[3].error == p + ":4: field \"text\" is number, not a string");
  CHECK(records[4].error == p + ":5: no field \"text\" (fields: other)");
  CHECK(records[5].error == p + ":6: JSON nested deeper than 64 levels");
  CHECK(records[6].text == "fine");
  CHECK(records[7].error.find(p + ":8: invalid JSON: number overflow") == 0);
  CHECK(error_of(p, field("text")).find(p + ":2: invalid JSON") == 0);
}

TEST_CASE("jsonl reader: deep nesting inside strings does not count, a million brackets are cheap") {
  bktest::TempDir dir;
  auto ok = write(dir / "ok.jsonl", "{\"text\": \"" + std::string(1000, '[') + "\\\"{\"}\n");
  JsonlReader reader({ok.string()}, field("text"));
  auto records = read_all(reader);
  REQUIRE(records.size() == 1);
  CHECK(records[0].text == std::string(1000, '[') + "\"{");
  auto deep = write(dir / "deep.jsonl", std::string(1000000, '[') + "\n");
  CHECK(error_of(deep.string(), field("text")) == deep.string() + ":1: JSON nested deeper than 64 levels");
}

TEST_CASE("jsonl reader: invalid UTF-8 is repaired before parsing, or refused when strict") {
  bktest::TempDir dir;
  auto path = write(dir / "in.jsonl", "{\"text\": \"a\xFF\"}\n");
  JsonlReader reader({path.string()}, field("text"));
  auto records = read_all(reader);
  REQUIRE(records.size() == 1);
  CHECK(records[0].text == "a\xEF\xBF\xBD");
  CHECK(records[0].repaired);
  ReaderOptions strict;
  strict.strict_utf8 = true;
  try {
    JsonlReader strict_reader({path.string()}, field("text"), strict);
    FAIL("no error");
  } catch (const bertkit::Error& e) {
    CHECK(std::string(e.what()) == path.string() + ":1: invalid UTF-8");
  }
}

TEST_CASE("jsonl reader: several inputs, and empty ones") {
  bktest::TempDir dir;
  auto empty = write(dir / "empty.jsonl", "");
  auto a = write(dir / "a.jsonl", "{\"text\": \"a\"}\n");
  auto b = write(dir / "b.jsonl", "\n{\"text\": \"b\"}\n");
  JsonlReader reader({empty.string(), a.string(), b.string()}, field("text"));
  auto records = read_all(reader);
  REQUIRE(records.size() == 2);
  CHECK(records[0].text == "a");
  CHECK(records[1].text == "b");
  CHECK(records[1].line == 2);
  CHECK(records[1].source == b.string());
  JsonlReader none({empty.string()}, field("text"));
  CHECK(read_all(none).empty());
}

TEST_CASE("jsonl reader: a line over the record limit is refused with file and line, and reading goes on") {
  bktest::TempDir dir;
  auto path = write(dir / "long.jsonl", "{\"text\": \"a\"}\n{\"text\": \"" + std::string(100, 'x') + "\"}\n{\"text\": \"b\"}\n");
  ReaderOptions options;
  options.max_record_bytes = 50;
  options.on_bad_record = OnBadRecord::Flag;
  JsonlReader reader({path.string()}, field("text"), options);
  auto records = read_all(reader);
  REQUIRE(records.size() == 3);
  CHECK(records[0].text == "a");
  CHECK(records[1].error == path.string() + ":2: line longer than the limit of 50 bytes (--max-line-bytes)");
  CHECK(records[2].text == "b");
  CHECK(records[2].line == 3);
}

TEST_CASE("jsonl reader: a NUL byte is invalid JSON wherever it is (nlohmann would end the line there)") {
  bktest::TempDir dir;
  auto path = write(dir / "in.jsonl", "{\"text\":\"a\"}\0{\"text\":\"b\"}\n{\"text\":\"a\0b\"}\n"s);
  ReaderOptions flag;
  flag.on_bad_record = OnBadRecord::Flag;
  JsonlReader reader({path.string()}, field("text"), flag);
  auto records = read_all(reader);
  REQUIRE(records.size() == 2);
  CHECK(records[0].error == path.string() + ":1: invalid JSON at byte 13: a NUL byte (a control character is written \\u0000)");
  CHECK(records[1].error == path.string() + ":2: invalid JSON at byte 11: a NUL byte (a control character is written \\u0000)");
}

TEST_CASE("jsonl reader: the line and where each member is written in it are kept, a name given twice is bad") {
  bktest::TempDir dir;
  auto path = write(dir / "in.jsonl", "{\"text\": \"a\", \"n\" : 1e2}\n{\"n\":1,\"text\":\"b\",\"n\":2}\n");
  ReaderOptions flag;
  flag.on_bad_record = OnBadRecord::Flag;
  JsonlReader reader({path.string()}, field("text"), flag);
  auto records = read_all(reader);
  REQUIRE(records.size() == 2);
  CHECK(records[0].raw == "{\"text\": \"a\", \"n\" : 1e2}");
  REQUIRE(records[0].members.size() == 2);
  const JsonMember& n = records[0].members[1];
  CHECK(records[0].raw.substr(n.name_begin, n.name_end - n.name_begin) == "\"n\"");
  CHECK(records[0].raw.substr(n.value_begin, n.value_end - n.value_begin) == "1e2");
  CHECK(records[1].error == path.string() + ":2: the name \"n\" is given twice (each field of a record is named once)");
}
