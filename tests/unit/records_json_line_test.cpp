#include "records/json_line.h"

#include <doctest/doctest.h>
#include <nlohmann/json.hpp>

#include <cmath>
#include <cstring>
#include <limits>
#include <random>
#include <vector>

using bertkit::records::JsonLine;

TEST_CASE("JsonLine builds nested records that parse back") {
  JsonLine j;
  std::vector<float> v{0.5f, -2.0f};
  j.begin_object().field("text", std::string("a")).field("n", 3).field("big", std::uint64_t{18446744073709551615u});
  j.field("ok", true).key("none").null().field("vec", std::span<const float>(v));
  j.key("list").begin_array();
  for (int i = 0; i < 2; ++i) j.begin_object().field("i", i).end_object();
  j.end_array().key("empty").begin_array().end_array().end_object();
  std::string line(j.line());
  CHECK(line ==
        "{\"text\":\"a\",\"n\":3,\"big\":18446744073709551615,\"ok\":true,\"none\":null,\"vec\":[0.5,-2.0],"
        "\"list\":[{\"i\":0},{\"i\":1}],\"empty\":[]}\n");
  CHECK(nlohmann::json::parse(line)["list"][1]["i"] == 1);
  // The builder starts over for the next record.
  j.begin_object().field("x", 1).end_object();
  CHECK(j.line() == "{\"x\":1}\n");
}

TEST_CASE("JsonLine escapes strings and repairs invalid UTF-8") {
  JsonLine j;
  const char raw[] = "q\"b\\s/\n\r\t\b\f\x01\x1f\0\x7f é 😀";
  std::string nasty(raw, sizeof raw - 1);
  j.begin_object().field("s", nasty).field("bad", std::string_view("a\xFF" "b")).end_object();
  std::string line(j.line());
  CHECK(line.find("\"q\\\"b\\\\s/\\n\\r\\t\\b\\f\\u0001\\u001f\\u0000\x7f é 😀\"") != std::string::npos);
  auto parsed = nlohmann::json::parse(line);
  CHECK(parsed["s"].get<std::string>() == nasty);
  CHECK(parsed["bad"].get<std::string>() == "a\xEF\xBF\xBD" "b");
}

TEST_CASE("JsonLine escapes a character at any place of a long string, as nlohmann does") {
  // Strings are scanned eight bytes at a time: each escaped character is put at every offset.
  for (char special : {'"', '\\', '\n', '\x01', '\x1f'}) {
    for (std::size_t at = 0; at < 40; ++at) {
      std::string s = "plain text, then more plain text and still é plain";
      s.insert(at, 1, special);
      JsonLine j;
      std::string line(j.begin_array().value(s).end_array().line());
      CHECK(line == nlohmann::json::array({s}).dump() + "\n");
    }
  }
  // Bytes above 0x7f next to a control character (the tests look at each byte's high bit).
  JsonLine j;
  CHECK(j.begin_array().value("\xc3\xa9\xc3\xa9\x02\xc3\xa9\xc3\xa9").end_array().line() == "[\"\xc3\xa9\xc3\xa9\\u0002\xc3\xa9\xc3\xa9\"]\n");
}

TEST_CASE("write_json_string writes what append_json_string appends for valid UTF-8, within six bytes a byte and two") {
  const char raw[] = "q\"b\\s/\n\r\t\b\f\x01\x1f\0\x7f é 😀";
  const std::string worst(64, '\x01');  // every byte a \u00XX: the bound exactly
  const std::string escapes_in_blocks = std::string(15, 'a') + "\"" + std::string(16, 'b') + "\\" + std::string(40, 'c') + "\x1f";
  for (std::string s : {std::string(raw, sizeof raw - 1), worst, escapes_in_blocks, std::string()}) {
    std::string appended;
    bertkit::records::append_json_string(appended, s);
    std::vector<char> room(6 * s.size() + 2);
    char* end = bertkit::records::write_json_string(room.data(), s);
    CHECK(std::string(room.data(), end) == appended);
  }
}

TEST_CASE("JsonLine reuses a buffer and takes values and members written as JSON text") {
  JsonLine j(std::string("left over"));
  j.begin_object().key("a");
  j.raw() += "[1,2]";
  j.raw() += "\"b\":true";
  j.field("c", 3).end_object();
  CHECK(j.take() == "{\"a\":[1,2],\"b\":true,\"c\":3}\n");
}

TEST_CASE("JsonLine prints each float as the shortest text that reads back as the same f32") {
  JsonLine j;
  j.begin_array().value(0.1f).value(1.0f).value(1e-5f).value(3.4028235e38f).value(-0.0f).value(100.0f);
  j.value(std::numeric_limits<float>::quiet_NaN()).value(std::numeric_limits<float>::infinity()).value(0.1).end_array();
  CHECK(j.line() == "[0.1,1.0,1e-05,3.4028235e+38,-0.0,100.0,null,null,0.1]\n");

  std::mt19937 rng(7);
  std::uniform_int_distribution<std::uint32_t> bits;
  std::size_t checked = 0;
  for (int i = 0; i < 20000; ++i) {
    std::uint32_t b = bits(rng);
    float x;
    std::memcpy(&x, &b, 4);
    if (!std::isfinite(x)) continue;
    JsonLine one;
    one.begin_array().value(x).end_array();
    float back = static_cast<float>(nlohmann::json::parse(one.line())[0].get<double>());
    if (std::memcmp(&back, &x, 4) != 0) FAIL("float ", x, " came back as ", back, " from ", one.line());
    ++checked;
  }
  CHECK(checked > 19000);
}
