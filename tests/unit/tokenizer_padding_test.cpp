// Padding a batch: to the longest encoding or to a fixed length, on the right or the left, with pad id,
// type id 0, attention 0, special-tokens mask 1 and [0, 0] offsets, overflowing windows included
// (reference: npm tokenizers 0.23.2, setPadding, on the same inputs).
#include "tokenizer_test_helpers.h"

#include "core/error.h"
#include "tokenizer/padding.h"

#include <doctest/doctest.h>

using bertkit::tok::Encoding;
using bertkit::tok::PaddingParams;
using bertkit::tok::PaddingStrategy;
using bertkit::tok::Side;

namespace {

std::vector<Encoding> batch(std::initializer_list<const char*> texts, const bertkit::tok::EncodeOptions& o = {}) {
  const auto& tok = bktest::shared_tokenizer("bert-base-uncased");
  std::vector<Encoding> out;
  for (const char* t : texts) out.push_back(tok.encode(t, std::nullopt, o));
  return out;
}

PaddingParams params(PaddingStrategy strategy, std::size_t length = 0, Side side = Side::Right) {
  PaddingParams p;
  p.strategy = strategy;
  p.length = length;
  p.side = side;
  p.pad_id = 0;
  return p;
}

}  // namespace

TEST_CASE("padding: to the longest of the batch, right") {
  auto b = batch({"one two three", "four five six seven eight"});
  bertkit::tok::pad_batch(b, params(PaddingStrategy::Longest));
  CHECK(bktest::join(b[0].ids) == "101 2028 2048 2093 102 0 0");
  CHECK(bktest::join(b[0].attention_mask) == "1 1 1 1 1 0 0");
  CHECK(bktest::join(b[0].special_mask) == "1 0 0 0 1 1 1");
  CHECK(bktest::join(b[0].type_ids) == "0 0 0 0 0 0 0");
  CHECK(bktest::byte_offsets_str(b[0]) == "0:0 0:3 4:7 8:13 0:0 0:0 0:0");
  CHECK(bktest::join(b[0].words) == "-1 0 1 2 -1 -1 -1");
  CHECK(b[1].size() == 7);
  CHECK(bktest::join(b[1].attention_mask) == "1 1 1 1 1 1 1");
}

TEST_CASE("padding: left, and to a fixed length") {
  auto b = batch({"one two three", "four"});
  bertkit::tok::pad_batch(b, params(PaddingStrategy::Longest, 0, Side::Left));
  CHECK(bktest::join(b[1].ids) == "0 0 101 2176 102");
  CHECK(bktest::join(b[1].attention_mask) == "0 0 1 1 1");
  CHECK(bktest::byte_offsets_str(b[1]) == "0:0 0:0 0:0 0:4 0:0");

  b = batch({"one two three", "four"});
  bertkit::tok::pad_batch(b, params(PaddingStrategy::MaxLength, 7));
  CHECK(bktest::join(b[0].ids) == "101 2028 2048 2093 102 0 0");
  CHECK(bktest::join(b[1].ids) == "101 2176 102 0 0 0 0");
  CHECK(bktest::join(b[1].special_mask) == "1 0 1 1 1 1 1");
  // Longer than the fixed length: left as it is.
  b = batch({"one two three four five six seven"});
  bertkit::tok::pad_batch(b, params(PaddingStrategy::MaxLength, 4));
  CHECK(b[0].size() == 9);
  // No padding: nothing changes.
  b = batch({"one", "one two"});
  bertkit::tok::pad_batch(b, params(PaddingStrategy::None));
  CHECK(b[0].size() == 3);
}

TEST_CASE("padding: overflowing windows are padded too, and keep their place on the left") {
  bertkit::tok::EncodeOptions o;
  o.truncation = bertkit::tok::TruncationParams{5};
  auto b = batch({"one two three four five six seven"}, o);
  REQUIRE(b[0].overflowing.size() == 2);
  bertkit::tok::pad_batch(b, params(PaddingStrategy::Longest, 0, Side::Left));
  CHECK(bktest::join(b[0].ids) == "101 2028 2048 2093 102");
  CHECK(bktest::join(b[0].overflowing[1].ids) == "0 0 101 2698 102");  // [CLS] seven [SEP]
  CHECK(b[0].overflowing.size() == 2);
}

TEST_CASE("padding: strategy names") {
  CHECK(bertkit::tok::parse_padding_strategy("longest") == PaddingStrategy::Longest);
  CHECK(bertkit::tok::parse_padding_strategy("max_length") == PaddingStrategy::MaxLength);
  CHECK(bertkit::tok::parse_padding_strategy("none") == PaddingStrategy::None);
  CHECK_THROWS_AS(bertkit::tok::parse_padding_strategy("shortest"), bertkit::Error);
}
