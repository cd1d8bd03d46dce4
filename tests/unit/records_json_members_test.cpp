#include "records/json_members.h"

#include <doctest/doctest.h>

#include <string>
#include <vector>

using namespace bertkit::records;

namespace {
// Each member as NAME=VALUE, its two texts as written; "!" when the scan refuses the text.
std::vector<std::string> spans(std::string_view text) {
  std::vector<JsonMember> members;
  if (!scan_json_members(text, members)) return {"!"};
  std::vector<std::string> out;
  for (const JsonMember& m : members)
    out.push_back(std::string(text.substr(m.name_begin, m.name_end - m.name_begin)) + "=" +
                  std::string(text.substr(m.value_begin, m.value_end - m.value_begin)));
  return out;
}
}  // namespace

TEST_CASE("json members: every kind of value as written, whitespace around it left out") {
  CHECK(spans("{}") == std::vector<std::string>{});
  CHECK(spans(" { \t} ") == std::vector<std::string>{});
  CHECK(spans(R"({"n":12345678901234567890123,"e" : 1e2 ,"f":-0.10,"t":true,"z":null})") ==
        std::vector<std::string>{R"("n"=12345678901234567890123)", R"("e"=1e2)", R"("f"=-0.10)", R"("t"=true)",
                                 R"("z"=null)"});
  CHECK(spans(R"({"a\"b":"x\\","c":"\\\"}","d":"]"})") ==
        std::vector<std::string>{R"("a\"b"="x\\")", R"("c"="\\\"}")", R"("d"="]")"});
  CHECK(spans(R"({"o":{"p":[1, {"q":"}]"}], "r":{}},"s":[[],[[]]]})") ==
        std::vector<std::string>{R"("o"={"p":[1, {"q":"}]"}], "r":{}})", R"("s"=[[],[[]]])"});
  CHECK(spans(R"({"id":1,"id":2})") == std::vector<std::string>{R"("id"=1)", R"("id"=2)"});
  CHECK(spans("{\"t\":\"\xC3\xA9\\u00e9\"}\r") == std::vector<std::string>{"\"t\"=\"\xC3\xA9\\u00e9\""});
}

TEST_CASE("json members: text that is not one object is refused without reading past it") {
  for (const char* text : {"", "[1]", "{", "{\"a\"", "{\"a\":", "{\"a\":1", "{\"a\":1,", "{\"a\":\"x}", "{\"a\" 1}",
                           "{\"a\":[1}", "{\"a\":1}x", "{1:2}", "{\"a\":,}", "{\"a\":\"\\\"}"})
    CHECK_MESSAGE(spans(text) == std::vector<std::string>{"!"}, text);
}
