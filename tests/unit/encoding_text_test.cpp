#include "tokenizer_test_helpers.h"

#include "commands/encoding_text.h"
#include "records/json_line.h"

#include <doctest/doctest.h>

#include <stdexcept>

using bertkit::cmd::append_joined;
using bertkit::cmd::append_json_pairs;
using bertkit::cmd::TokenTexts;

TEST_CASE("encoding text: ids, tokens and offsets as tokenize writes them") {
  // Tokens shorter and longer than the fixed-size copy, and one JSON must escape.
  const std::vector<std::string> vocab{"[PAD]", "[UNK]", "[CLS]", "[SEP]", "a", "say \"hi\"\\",
                                       "a-token-longer-than-sixteen-bytes", "é"};
  auto tokenizer = bktest::tokenizer_from_vocab(vocab);
  const TokenTexts ids(*tokenizer, TokenTexts::Style::Id, ' '), raw(*tokenizer, TokenTexts::Style::Raw, ' '),
      json(*tokenizer, TokenTexts::Style::Json, ',');
  const std::vector<std::int32_t> sequence{2, 6, 4, 5, 7, 6, 3};

  bertkit::records::TextBuffer out;
  out.append("kept ");
  append_joined(out, sequence, ids);
  CHECK(out.view() == "kept 2 6 4 5 7 6 3");

  out.clear();
  append_joined(out, sequence, raw);
  CHECK(out.view() == "[CLS] a-token-longer-than-sixteen-bytes a say \"hi\"\\ é a-token-longer-than-sixteen-bytes [SEP]");

  out.clear();
  append_joined(out, sequence, json);
  std::string expected;
  for (std::size_t i = 0; i < sequence.size(); ++i) {
    if (i) expected += ',';
    bertkit::records::append_json_string(expected, vocab[static_cast<std::size_t>(sequence[i])]);
  }
  CHECK(out.view() == expected);

  out.clear();
  append_joined(out, std::vector<std::int32_t>{0, 1, 12, -3, 2147483647}, ',');
  CHECK(out.view() == "0,1,12,-3,2147483647");
  out.clear();
  append_joined(out, std::vector<std::int32_t>{0, 1, 1, 0}, ',');
  CHECK(out.view() == "0,1,1,0");
  out.clear();
  append_joined(out, std::vector<std::uint8_t>{1, 0, 255}, ' ');
  CHECK(out.view() == "1 0 255");
  out.clear();
  append_json_pairs(out, std::vector<bertkit::tok::Offsets>{{0, 0}, {4294967295u, 7}});
  CHECK(out.view() == "[0,0],[4294967295,7]");
  out.clear();
  append_json_pairs(out, std::vector<bertkit::tok::Offsets>{{0, 9}, {9, 10}, {10, 100}});
  CHECK(out.view() == "[0,9],[9,10],[10,100]");

  // Runs of one digit longer than the copied pattern, and offsets past the table of small ones.
  for (std::size_t n : {1, 2, 1023, 1024, 1025, 3000}) {
    CAPTURE(n);
    out.clear();
    append_joined(out, std::vector<std::uint8_t>(n, 1), ',');
    std::string ones;
    for (std::size_t i = 0; i < n; ++i) ones += i ? ",1" : "1";
    CHECK(out.view() == ones);
  }
  out.clear();
  append_json_pairs(out, std::vector<bertkit::tok::Offsets>{{4094, 4095}, {4095, 4096}, {4096, 4097}, {3, 123456}});
  CHECK(out.view() == "[4094,4095],[4095,4096],[4096,4097],[3,123456]");

  out.clear();
  append_joined(out, std::vector<std::int32_t>{}, raw);
  CHECK(out.view().empty());
  CHECK_THROWS_AS(append_joined(out, std::vector<std::int32_t>{8}, raw), std::out_of_range);
  CHECK_THROWS_AS(append_joined(out, std::vector<std::int32_t>{-1}, ids), std::out_of_range);
}
