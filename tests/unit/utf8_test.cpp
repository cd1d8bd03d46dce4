#include "tokenizer/utf8.h"

#include <doctest/doctest.h>

using bertkit::tok::repair_utf8;

namespace {
std::string repaired(std::string_view in, std::size_t* count = nullptr) {
  std::string out;
  std::size_t n = repair_utf8(in, out);
  if (count) *count = n;
  return out;
}
const std::string kFffd = "\xEF\xBF\xBD";
}  // namespace

TEST_CASE("repair_utf8 keeps valid text and replaces maximal subparts as Python does") {
  std::size_t n = 0;
  CHECK(repaired("héllo 世界 😀", &n) == "héllo 世界 😀");
  CHECK(n == 0);
  // Cases checked against CPython's b.decode("utf-8", "replace").
  CHECK(repaired("a\x80" "b", &n) == "a" + kFffd + "b");
  CHECK(n == 1);
  CHECK(repaired("\xE2\x82") == kFffd);                        // truncated 3-byte sequence: one U+FFFD
  CHECK(repaired("\xE2\x82" "x") == kFffd + "x");
  CHECK(repaired("\xED\xA0\x80") == kFffd + kFffd + kFffd);            // surrogate: each byte
  CHECK(repaired("\xC0\xAF") == kFffd + kFffd);                    // overlong
  CHECK(repaired("\xE0\x80\xAF") == kFffd + kFffd + kFffd);
  CHECK(repaired("\xF0\x9F\x98") == kFffd);                    // truncated emoji
  CHECK(repaired("\xF4\x90\x80\x80") == kFffd + kFffd + kFffd + kFffd);    // above U+10FFFF
  CHECK(repaired("\xFF\xFE") == kFffd + kFffd);
  CHECK(repaired(std::string("a\0b", 3)) == std::string("a\0b", 3));
}

TEST_CASE("valid_utf8_prefix stops at the first ill-formed byte") {
  CHECK(bertkit::tok::valid_utf8_prefix("abc") == 3);
  CHECK(bertkit::tok::valid_utf8_prefix("ab\xC3") == 2);
  CHECK(bertkit::tok::valid_utf8_prefix("é\x80") == 2);
}
