// tokenizer.json read in one pass: the result is nlohmann's own DOM of the file without model.vocab, and
// model.vocab's entries in file order, for every real tokenizer.json in ../shared; nesting, numbers and
// vocabulary values are refused as the DOM parser refuses them.
#include "expect_bad_input.h"
#include "support.h"
#include "tokenizer/tokenizer_json.h"

#include <doctest/doctest.h>
#include <nlohmann/json.hpp>

#include <string>

using bertkit::tok::parse_tokenizer_json;
using nlohmann::json;

namespace {

// nlohmann's DOM of the file, and model.vocab's entries in file order, recorded by the DOM parser's own
// callback (ordered_json would do it too, but its insertion is quadratic: minutes for 120,000 keys).
struct Reference {
  json dom;
  std::vector<std::pair<std::string, std::int64_t>> vocab;
};

Reference reference_parse(const std::string& text) {
  Reference r;
  std::vector<std::string> keys;  // the key being read at each depth
  // A key or value event at depth 3 is a member of an object two levels below the root.
  auto in_vocab = [&](int depth) { return depth == 3 && keys[1] == "model" && keys[2] == "vocab"; };
  r.dom = json::parse(text, [&](int depth, json::parse_event_t event, json& parsed) {
    if (event == json::parse_event_t::key) {
      keys.resize(static_cast<std::size_t>(depth) + 1);
      keys.back() = parsed.get<std::string>();
      if (in_vocab(depth)) r.vocab.emplace_back(keys.back(), 0);
    } else if (event == json::parse_event_t::value && in_vocab(depth)) {
      r.vocab.back().second = parsed.get<std::int64_t>();
    }
    return true;
  });
  return r;
}

}  // namespace

TEST_CASE("tokenizer.json: one pass gives the DOM without model.vocab and the vocabulary in file order") {
  int files = 0;
  for (const auto& entry : std::filesystem::recursive_directory_iterator(bktest::shared("fixtures/models"))) {
    if (entry.path().filename() != "tokenizer.json") continue;
    const std::string text = bktest::read_file(entry.path());
    const std::string where = entry.path().string();
    auto read = parse_tokenizer_json(text, where);
    Reference expected = reference_parse(text);
    expected.dom["model"].erase("vocab");
    CHECK_MESSAGE(read.rest == expected.dom, where);
    REQUIRE_MESSAGE(read.vocab.has_value(), where);
    CHECK_MESSAGE(*read.vocab == expected.vocab, where);
    CHECK(read.vocab->size() > 1000);
    ++files;
  }
  CHECK(files >= 5);
}

TEST_CASE("tokenizer.json: only the root's model.vocab is taken apart, and a repeated key keeps its last value") {
  auto read = parse_tokenizer_json(
      R"({"vocab": {"a": 1}, "model": {"x": [{"vocab": {"b": 2}}], "vocab": {"[UNK]": 0, "hi": 7}}, "n": [1, 2.5, -3, true, null, "s"]})",
      "t.json");
  CHECK(read.rest == json::parse(R"({"vocab": {"a": 1}, "model": {"x": [{"vocab": {"b": 2}}]}, "n": [1, 2.5, -3, true, null, "s"]})"));
  REQUIRE(read.vocab.has_value());
  CHECK(*read.vocab == std::vector<std::pair<std::string, std::int64_t>>{{"[UNK]", 0}, {"hi", 7}});

  auto later_wins = parse_tokenizer_json(R"({"model": {"vocab": {"a": 1}, "vocab": {"b": 2}}})", "t.json");
  CHECK(*later_wins.vocab == std::vector<std::pair<std::string, std::int64_t>>{{"b", 2}});
  auto not_an_object = parse_tokenizer_json(R"({"model": {"vocab": {"a": 1}, "vocab": 3}})", "t.json");
  CHECK_FALSE(not_an_object.vocab.has_value());
  CHECK(not_an_object.rest == json::parse(R"({"model": {"vocab": 3}})"));
  CHECK_FALSE(parse_tokenizer_json(R"({"model": {"type": "WordPiece"}})", "t.json").vocab.has_value());
  CHECK_FALSE(parse_tokenizer_json(R"({"model": []})", "t.json").vocab.has_value());
}

TEST_CASE("tokenizer.json: invalid JSON, deep nesting, an overflowing number and a non-integer id are refused") {
  const std::filesystem::path where = "dir/tokenizer.json";
  auto parse = [&](const std::string& text) { return [text, &where] { parse_tokenizer_json(text, where.string()); }; };
  bktest::expect_bad_input(parse(R"({"model": {"vocab": {"a": 1})"), where, "invalid JSON");
  bktest::expect_bad_input(parse(R"({"a": 1} x)"), where, ": invalid JSON at line 1, column 10: syntax error");
  bktest::expect_bad_input(parse(std::string(65, '[') + std::string(65, ']')), where, "nested deeper than 64 levels");
  bktest::expect_bad_input(parse(R"({"model": {"vocab": {"a": 1}}, "x": 1e999})"), where, "number overflow");
  for (const char* value : {"1.5", "\"1\"", "null", "true", "[1]", "{\"x\": 1}"})
    bktest::expect_bad_input(parse(std::string(R"({"model": {"vocab": {"ok": 0, "bad": )") + value + "}}}"), where,
                             "vocab entry 'bad' has no integer id");
  CHECK_NOTHROW(parse_tokenizer_json(std::string(64, '[') + std::string(64, ']'), where.string()));
}
